//! `char`: sacreBLEU's `TokenizerChar`, `" ".join(line)`.

/// Appends `" ".join(line)`: every character, whitespace included, separated by one space.
pub(crate) fn tokenize_char(line: &str, out: &mut Vec<u8>) {
    let mut first = true;
    let mut utf8 = [0u8; 4];
    for c in line.chars() {
        if !first {
            out.push(b' ');
        }
        first = false;
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_characters() {
        let mut out = Vec::new();
        tokenize_char("a b日", &mut out);
        assert_eq!(out, "a   b 日".as_bytes());
    }
}
