//! Text as sacreBLEU sees it: Python's whitespace ([`whitespace`]) and sacreBLEU's tokenizers
//! ([`tokenize`]).

pub mod tokenize;
pub mod whitespace;
