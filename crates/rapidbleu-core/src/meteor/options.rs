//! [`MeteorOptions`]: the parameters of `meteor_score` (nltk 3.10.4), checked once.

use super::wordnet::WordNet;

/// The parameters of NLTK's `meteor_score(references, hypothesis, preprocess=str.lower,
/// stemmer=PorterStemmer(), wordnet=wordnet, alpha=0.9, beta=3.0, gamma=0.5)`.
///
/// Any float is allowed, as NLTK allows it (a zero denominator scores 0.0, as NLTK's
/// `ZeroDivisionError` branch does). The WordNet is the process's shared copy
/// ([`super::wordnet::locate::shared`]), so the options are a small `Copy` value.
#[derive(Clone, Copy, Debug)]
pub struct MeteorOptions {
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
    pub(crate) gamma: f64,
    pub(crate) lowercase: bool,
    pub(crate) stem: bool,
    pub(crate) wordnet: Option<&'static WordNet>,
}

impl MeteorOptions {
    /// Options: `alpha`, `beta`, `gamma` as NLTK's; `lowercase` is `preprocess=str.lower`
    /// (else the identity); `stem` is `stemmer=PorterStemmer()` (else no stem stage);
    /// `wordnet` is the synonym stage's WordNet (`None`: no synonym stage).
    pub fn new(
        alpha: f64,
        beta: f64,
        gamma: f64,
        lowercase: bool,
        stem: bool,
        wordnet: Option<&'static WordNet>,
    ) -> MeteorOptions {
        MeteorOptions {
            alpha,
            beta,
            gamma,
            lowercase,
            stem,
            wordnet,
        }
    }

    /// NLTK's defaults (`alpha=0.9, beta=3.0, gamma=0.5`, lowercase, Porter stems) with
    /// `wordnet`.
    pub fn nltk(wordnet: Option<&'static WordNet>) -> MeteorOptions {
        MeteorOptions::new(0.9, 3.0, 0.5, true, true, wordnet)
    }

    /// `alpha`: the weight of precision against recall.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// `beta`: the exponent of the fragmentation penalty.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// `gamma`: the weight of the fragmentation penalty.
    pub fn gamma(&self) -> f64 {
        self.gamma
    }

    /// Whether tokens are lowercased (`preprocess=str.lower`).
    pub fn lowercase(&self) -> bool {
        self.lowercase
    }

    /// Whether the Porter stem stage runs.
    pub fn stem(&self) -> bool {
        self.stem
    }

    /// The synonym stage's WordNet, if any.
    pub fn wordnet(&self) -> Option<&'static WordNet> {
        self.wordnet
    }
}
