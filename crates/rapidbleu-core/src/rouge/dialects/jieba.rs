//! jieba 0.42.1's `cut(text)` (its default: accurate mode with the HMM), word for word.
//!
//! XL-Sum's Chinese tokenizer is `list(jieba.cut(text))`. Existing ports (jieba-rs, cppjieba)
//! carry their own dictionary and HMM model and segment some text differently from Python's
//! jieba (napi-rs/node-rs#653, yanyiwu/cppjieba#114), so this is a port of the Python code,
//! run on the dictionary and model the Python package has loaded ([`Jieba::new`] takes them
//! from `jieba.dt.FREQ` and `jieba.finalseg`):
//!
//! - `Tokenizer.cut`: the text split into blocks of `re_han_default`
//!   (`[\u4E00-\u9FD5a-zA-Z0-9+#&._%-]+`); every other character is a word of its own, except
//!   `"\r\n"` (`re_skip_default`);
//! - `Tokenizer.__cut_DAG` on each block: `get_DAG` (every prefix-dictionary word starting at
//!   each character), `calc` (the route of highest log-probability, right to left, ties to the
//!   longer word, as Python's `max` on `(log_prob, end)` tuples), and runs of single
//!   characters either kept apart (a dictionary word) or given to the HMM;
//! - `finalseg.cut`: blocks of `[\u4E00-\u9FD5]+` through its Viterbi (states `BMES`, ties to
//!   the later letter, as `max` on `(prob, state)` tuples), words of `Force_Split_Words`
//!   split into characters; between them, runs of `[a-zA-Z0-9]+(?:\.\d+)?%?` and what lies
//!   between those.
//!
//! Every float is computed in the order and with the operations of the Python code (`log` is
//! the C library's, as Python's `math.log`), so every comparison, hence every word, is the
//! same.

use rustc_hash::{FxHashMap, FxHashSet};

/// `finalseg.MIN_FLOAT`: the log-probability of what the model does not list.
pub const MIN_FLOAT: f64 = -3.14e100;

/// The HMM's states in `finalseg`'s iteration order `"BMES"`.
const B: usize = 0;
const M: usize = 1;
const E: usize = 2;
const S: usize = 3;

/// Each state's letter rank, for ties (`max` compares the letters: `B < E < M < S`).
const RANK: [u8; 4] = [0, 2, 1, 3];

/// `finalseg.PrevStatus`: the states that may precede each state.
const PREV: [[usize; 2]; 4] = [[E, S], [M, B], [B, M], [S, E]];

/// A node of the prefix dictionary: the string spelled from the root to it.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Its number: the parent part of its children's keys.
    id: u32,
    /// `string in FREQ`.
    member: bool,
    /// `bool(FREQ[string])`.
    word: bool,
    /// `log(FREQ[string] or 1)`.
    log_freq: f64,
}

/// `finalseg`'s model: `start_P`, `trans_P` and `emit_P`, with [`MIN_FLOAT`] where a key is
/// missing (as its `.get(key, MIN_FLOAT)`).
#[derive(Clone, Debug)]
pub struct Hmm {
    /// `start_P[state]`, states in `BMES` order.
    pub start: [f64; 4],
    /// `trans_P[from].get(to, MIN_FLOAT)`.
    pub trans: [[f64; 4]; 4],
    /// `emit_P[state]`: character -> log-probability.
    pub emit: [FxHashMap<char, f64>; 4],
}

/// jieba's dictionary and model, ready to cut.
///
/// Performance decision: `Tokenizer.FREQ` is held as a trie (a child is one look-up of its
/// parent and a character, which also holds its entry), so `get_DAG`'s walk from a character
/// costs one probe a step, not a hash of the whole growing prefix; the emission probabilities
/// of the four states are one look-up per character.
#[derive(Debug)]
pub struct Jieba {
    /// `(parent << 32) | char` -> the child, its entry in the same slot (one memory access a
    /// step of a walk, in a table of some megabytes).
    children: FxHashMap<u64, Node>,
    log_total: f64,
    start: [f64; 4],
    trans: [[f64; 4]; 4],
    emit: FxHashMap<char, [f64; 4]>,
    force_split: FxHashSet<Box<str>>,
}

/// Buffers reused from one cut to the next.
#[derive(Default)]
pub struct Scratch {
    /// Byte offset of each character of a block, and the block's length.
    offsets: Vec<usize>,
    /// The block's characters.
    chars: Vec<char>,
    /// `calc`'s `route`: `(log_prob, end)` per character.
    route: Vec<(f64, usize)>,
    hmm: HmmScratch,
}

/// The Viterbi's buffers.
#[derive(Default)]
struct HmmScratch {
    /// Probabilities and back pointers per character, the path, the characters.
    probs: Vec<[f64; 4]>,
    back: Vec<[u8; 4]>,
    states: Vec<u8>,
    chars: Vec<char>,
}

/// `re_han_default`'s characters.
fn is_han_default(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FD5}' | 'a'..='z' | 'A'..='Z' | '0'..='9')
        || matches!(c, '+' | '#' | '&' | '.' | '_' | '%' | '-')
}

/// `finalseg.re_han`'s characters.
fn is_han(c: char) -> bool {
    ('\u{4E00}'..='\u{9FD5}').contains(&c)
}

impl Jieba {
    /// jieba from `Tokenizer.FREQ` (`(word, frequency, non-zero)` for each entry, the
    /// frequency as the float Python's `log` reads), `log(Tokenizer.total)`, the HMM, and
    /// `finalseg.Force_Split_Words`.
    pub fn new(
        freq: impl IntoIterator<Item = (String, f64, bool)>,
        log_total: f64,
        hmm: Hmm,
        force_split: impl IntoIterator<Item = String>,
    ) -> Self {
        let mut jieba = Jieba {
            children: FxHashMap::default(),
            log_total,
            start: hmm.start,
            trans: hmm.trans,
            emit: FxHashMap::default(),
            force_split: force_split
                .into_iter()
                .map(String::into_boxed_str)
                .collect(),
        };
        let mut nodes = 1u32; // the root is 0
        for (w, f, word) in freq {
            let mut node: Option<&mut Node> = None;
            let mut parent = 0u32;
            for c in w.chars() {
                let child = jieba
                    .children
                    .entry(child_key(parent, c))
                    .or_insert_with(|| {
                        nodes += 1;
                        Node {
                            id: nodes - 1,
                            ..Node::default()
                        }
                    });
                parent = child.id;
                node = Some(child);
            }
            if let Some(node) = node {
                // `log(self.FREQ.get(...) or 1)`.
                node.log_freq = if word { f.ln() } else { 0.0 };
                node.member = true;
                node.word = word;
            }
        }
        for (y, emit) in hmm.emit.iter().enumerate() {
            for (&c, &p) in emit {
                jieba.emit.entry(c).or_insert([MIN_FLOAT; 4])[y] = p;
            }
        }
        jieba
    }

    /// The node of `FREQ[text]`'s entry (`None`: not in `FREQ`).
    fn entry(&self, text: &str) -> Option<Node> {
        let mut node: Option<Node> = None;
        for c in text.chars() {
            node = Some(*self.children.get(&child_key(node.map_or(0, |n| n.id), c))?);
        }
        node.filter(|n| n.member)
    }

    /// Calls `out` with each word of `jieba.cut(text)`, in order (each a slice of `text`).
    pub fn cut<'t>(&self, text: &'t str, scratch: &mut Scratch, out: &mut impl FnMut(&'t str)) {
        for_each_run(text, is_han_default, |block, han| {
            if han {
                self.cut_dag(block, scratch, out);
            } else {
                // re_skip_default's split: "\r\n" stays one word, every other character is one.
                let mut at = 0;
                while at < block.len() {
                    let step = if block[at..].starts_with("\r\n") {
                        2
                    } else {
                        block[at..].chars().next().map_or(1, char::len_utf8)
                    };
                    out(&block[at..at + step]);
                    at += step;
                }
            }
        });
    }

    /// `Tokenizer.__cut_DAG` on one block of `re_han_default`.
    fn cut_dag<'t>(&self, block: &'t str, scratch: &mut Scratch, out: &mut impl FnMut(&'t str)) {
        let Scratch {
            offsets,
            chars,
            route,
            hmm,
        } = scratch;
        offsets.clear();
        chars.clear();
        for (i, c) in block.char_indices() {
            offsets.push(i);
            chars.push(c);
        }
        offsets.push(block.len());
        let n = offsets.len() - 1;
        // `calc`, with `get_DAG`'s list for each start made as it is read.
        route.clear();
        route.resize(n + 1, (0.0, 0));
        for idx in (0..n).rev() {
            let mut best: Option<(f64, usize)> = None;
            let mut consider = |log_freq: f64, x: usize| {
                let p = log_freq - self.log_total + route[x + 1].0;
                // Python's max over (p, x) tuples: the later end wins a tie.
                if best.is_none_or(|(bp, bx)| p > bp || (p == bp && x > bx)) {
                    best = Some((p, x));
                }
            };
            let mut any = false;
            let mut node = 0u32;
            // `while i < N and frag in self.FREQ`, one character further each step.
            for (i, &c) in chars[idx..].iter().enumerate() {
                let Some(&entry) = self.children.get(&child_key(node, c)) else {
                    break;
                };
                node = entry.id;
                if !entry.member {
                    break;
                }
                if entry.word {
                    consider(entry.log_freq, idx + i);
                    any = true;
                }
            }
            if !any {
                // `tmplist.append(k)`: the character alone, `log(FREQ.get(c) or 1)` = 0.
                consider(0.0, idx);
            }
            if let Some(b) = best {
                route[idx] = b;
            }
        }
        // The words of the route; runs of single characters go through `buf`.
        let mut x = 0;
        let mut buf: Option<usize> = None;
        while x < n {
            let y = route[x].1 + 1;
            if y - x == 1 {
                buf.get_or_insert(x);
            } else {
                if let Some(start) = buf.take() {
                    self.flush(&block[offsets[start]..offsets[x]], hmm, out);
                }
                out(&block[offsets[x]..offsets[y]]);
            }
            x = y;
        }
        if let Some(start) = buf {
            self.flush(&block[offsets[start]..], hmm, out);
        }
    }

    /// `__cut_DAG`'s `buf`: one character as it is; a dictionary word as its characters;
    /// anything else through `finalseg.cut`.
    fn flush<'t>(&self, buf: &'t str, scratch: &mut HmmScratch, out: &mut impl FnMut(&'t str)) {
        let mut chars = buf.char_indices();
        if chars.nth(1).is_none() {
            out(buf);
        } else if self.entry(buf).is_some_and(|e| e.word) {
            split_chars(buf, out);
        } else {
            self.finalseg(buf, scratch, out);
        }
    }

    /// `finalseg.cut`.
    fn finalseg<'t>(&self, text: &'t str, scratch: &mut HmmScratch, out: &mut impl FnMut(&'t str)) {
        for_each_run(text, is_han, |block, han| {
            if han {
                self.viterbi_cut(block, scratch, out);
            } else {
                skip_split(block, out);
            }
        });
    }

    /// `finalseg.__cut` on a block of Han characters, words of `Force_Split_Words` split.
    fn viterbi_cut<'t>(
        &self,
        block: &'t str,
        scratch: &mut HmmScratch,
        out: &mut impl FnMut(&'t str),
    ) {
        scratch.chars.clear();
        scratch.chars.extend(block.chars());
        self.viterbi(scratch);
        let mut emit = |w: &'t str| {
            if self.force_split.contains(w) {
                split_chars(w, out);
            } else {
                out(w);
            }
        };
        let (mut begin, mut next) = (0, 0);
        for (i, (at, c)) in block.char_indices().enumerate() {
            match usize::from(scratch.states[i]) {
                B => begin = at,
                E => {
                    emit(&block[begin..at + c.len_utf8()]);
                    next = at + c.len_utf8();
                }
                S => {
                    emit(&block[at..at + c.len_utf8()]);
                    next = at + c.len_utf8();
                }
                _ => {}
            }
        }
        if next < block.len() {
            emit(&block[next..]);
        }
    }

    /// `finalseg.viterbi(obs, "BMES", start_P, trans_P, emit_P)`'s path into `scratch.states`.
    fn viterbi(&self, scratch: &mut HmmScratch) {
        let HmmScratch {
            probs,
            back,
            states,
            chars,
        } = scratch;
        let emit = |c: char| self.emit.get(&c).copied().unwrap_or([MIN_FLOAT; 4]);
        let n = chars.len();
        probs.clear();
        back.clear();
        states.clear();
        if n == 0 {
            return;
        }
        let first = emit(chars[0]);
        probs.push(std::array::from_fn(|y| self.start[y] + first[y]));
        back.push([0; 4]);
        for t in 1..n {
            let prev = probs[t - 1];
            let mut v = [0.0; 4];
            let mut from = [0u8; 4];
            let em_t = emit(chars[t]);
            for y in 0..4 {
                let em = em_t[y];
                let mut best = (f64::NEG_INFINITY, 0usize);
                for (k, &y0) in PREV[y].iter().enumerate() {
                    let p = prev[y0] + self.trans[y0][y] + em;
                    let better = p > best.0 || (p == best.0 && RANK[y0] > RANK[best.1]);
                    if k == 0 || better {
                        best = (p, y0);
                    }
                }
                v[y] = best.0;
                from[y] = best.1 as u8;
            }
            probs.push(v);
            back.push(from);
        }
        // max((V[-1][y], y) for y in "ES").
        let last = probs[n - 1];
        let mut state = if last[S] > last[E] || (last[S] == last[E] && RANK[S] > RANK[E]) {
            S
        } else {
            E
        };
        states.resize(n, 0);
        for t in (0..n).rev() {
            states[t] = state as u8;
            state = usize::from(back[t][state]);
        }
    }
}

/// Calls `f` with each maximal run of `text` whose characters are all in `class` or all out
/// of it, and which: `re.split` of a capturing group `([...]+)`, its empty pieces left out.
fn for_each_run<'t>(text: &'t str, class: impl Fn(char) -> bool, mut f: impl FnMut(&'t str, bool)) {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let inside = class(c);
        let end = rest.find(|c| class(c) != inside).unwrap_or(rest.len());
        let (run, after) = rest.split_at(end);
        f(run, inside);
        rest = after;
    }
}

/// The key of `node`'s child at `c`.
fn child_key(node: u32, c: char) -> u64 {
    (u64::from(node) << 32) | u64::from(c)
}

/// Each character of `w` as a word.
fn split_chars<'t>(w: &'t str, out: &mut impl FnMut(&'t str)) {
    for (i, c) in w.char_indices() {
        out(&w[i..i + c.len_utf8()]);
    }
}

/// `finalseg.re_skip.split(blk)`'s non-empty pieces: the matches of
/// `[a-zA-Z0-9]+(?:\.\d+)?%?` and the runs between them.
fn skip_split<'t>(text: &'t str, out: &mut impl FnMut(&'t str)) {
    let bytes = text.as_bytes();
    let alnum = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
    let (mut gap, mut i) = (0, 0);
    while i < bytes.len() {
        if !alnum(i) {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        if gap < i {
            out(&text[gap..i]);
        }
        let start = i;
        while alnum(i) {
            i += 1;
        }
        // `(?:\.\d+)?`. `\d` is any decimal digit, but a run given to `finalseg` comes from a
        // block of `re_han_default`, whose only digits are ASCII.
        if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if bytes.get(i) == Some(&b'%') {
            i += 1;
        }
        out(&text[start..i]);
        gap = i;
    }
    if gap < bytes.len() {
        out(&text[gap..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Jieba {
        // A dictionary of three words and their prefixes, and a model that prefers "BE".
        let words = [
            ("北京", 100.0),
            ("天安门", 50.0),
            ("我", 80.0),
            ("爱", 60.0),
        ];
        let mut freq: Vec<(String, f64, bool)> = Vec::new();
        for (w, f) in words {
            freq.push((w.to_string(), f, true));
        }
        freq.push(("天".into(), 0.0, false));
        freq.push(("天安".into(), 0.0, false));
        freq.push(("北".into(), 0.0, false));
        let mut emit: [FxHashMap<char, f64>; 4] = Default::default();
        for (y, p) in [(B, -1.0), (M, -3.0), (E, -1.0), (S, -2.0)] {
            for c in "你好世界".chars() {
                emit[y].insert(c, p);
            }
        }
        let hmm = Hmm {
            start: [-0.5, MIN_FLOAT, MIN_FLOAT, -1.0],
            trans: [
                [MIN_FLOAT, -1.0, -0.3, MIN_FLOAT],
                [MIN_FLOAT, -1.0, -0.3, MIN_FLOAT],
                [-0.5, MIN_FLOAT, MIN_FLOAT, -1.0],
                [-0.5, MIN_FLOAT, MIN_FLOAT, -1.0],
            ],
            emit,
        };
        Jieba::new(freq, (290f64).ln(), hmm, ["世界".to_string()])
    }

    fn cut(j: &Jieba, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        j.cut(text, &mut Scratch::default(), &mut |w| {
            out.push(w.to_string())
        });
        out
    }

    #[test]
    fn dictionary_words_hmm_runs_and_blocks() {
        let j = tiny();
        assert_eq!(cut(&j, "我爱北京天安门"), ["我", "爱", "北京", "天安门"]);
        // "你好" is not a word: the HMM makes it one; "世界" is force-split.
        assert_eq!(cut(&j, "你好北京"), ["你好", "北京"]);
        assert_eq!(cut(&j, "世界北京"), ["世", "界", "北京"]);
        assert_eq!(
            cut(&j, "a b\r\nc，北京"),
            ["a", " ", "b", "\r\n", "c", "，", "北京"]
        );
        assert_eq!(cut(&j, ""), Vec::<String>::new());
    }

    #[test]
    fn skip_split_as_finalseg() {
        let mut out = Vec::new();
        skip_split("ab3.5%+-x.y", &mut |w| out.push(w));
        assert_eq!(out, ["ab3.5%", "+-", "x", ".", "y"]);
    }
}
