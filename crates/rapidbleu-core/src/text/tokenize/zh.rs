//! `zh`: sacreBLEU's `TokenizerZh`.
//!
//! `TokenizerZh.__call__` does `line.strip()`, surrounds every character for which
//! `_is_chinese_char` holds with spaces, and hands the result to `TokenizerRegexp` (the 13a
//! regex stage, without 13a's entity replacements and without its `' {line} '` padding).

use super::regexp::regex_stage;
use super::TokBuf;
use crate::text::whitespace::py_strip;

/// `TokenizerZh.__call__` without `TokenizerRegexp`'s final `' '.join(line.split())`.
pub(crate) fn tokenize_zh(line: &str, buf: &mut TokBuf) {
    let line = py_strip(line);
    buf.tmp.clear();
    buf.tmp.reserve(line.len() + line.len() / 2 + 2);
    // Copy runs of non-Chinese characters in one go; only Chinese characters cost a write each.
    //
    // Every split character lies in U+2001..=U+FFEF, so it is encoded in three bytes with a lead
    // byte in 0xE2..=0xEF; no other byte of valid UTF-8 (ASCII, continuation bytes, other lead
    // bytes) is in that interval. Only those lead bytes are decoded.
    let bytes = line.as_bytes();
    let mut run_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if !(0xE2..=0xEF).contains(&lead) {
            i += 1;
            continue;
        }
        let cp = match bytes.get(i + 1..i + 3) {
            Some(&[b1, b2]) => {
                (u32::from(lead & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F)
            }
            _ => break, // unreachable for valid UTF-8
        };
        if is_chinese_cp(cp) {
            buf.tmp.extend_from_slice(&bytes[run_start..i]);
            buf.tmp.push(b' ');
            buf.tmp.extend_from_slice(&bytes[i..i + 3]);
            buf.tmp.push(b' ');
            run_start = i + 3;
        }
        i += 3;
    }
    buf.tmp.extend_from_slice(&line.as_bytes()[run_start..]);
    regex_stage(buf);
}

/// `TokenizerZh._is_chinese_char` on the character `cp`, as it actually behaves, bug included.
///
/// sacreBLEU tests `start <= uchar <= end` on *strings* for each pair of `_UCODE_RANGES`. Two
/// pairs were meant as astral ranges but are written with 4-digit `\u` escapes followed by an
/// extra digit: `(u'\u20000', u'\u2a6d6')` is `('\u2000' + '0', '\u2a6d' + '6')` and
/// `(u'\u2f800', u'\u2fa1d')` is `('\u2f80' + '0', '\u2fa1' + 'd')` (mjpost/sacrebleu issue
/// #298, still open in 2.6.0). Comparing a one-character string with those two-character
/// strings makes the first pair select U+2001..=U+2A6D (general punctuation, currency, arrows,
/// math, dingbats, ...: `'\u2000' < '\u2000' + '0'`, so U+2000 itself is out) and the second
/// U+2F81..=U+2FA1 (already inside the Kangxi radicals range). Astral ideographs such as
/// U+20000 are *not* split. We copy this behaviour, since the point is sacreBLEU's scores.
///
/// The ranges below are the union of all `_UCODE_RANGES` under that string comparison, merged
/// and sorted; `tests/tokenizers/test_tokenizers.py` checks them against sacreBLEU for every code point.
#[inline]
fn is_chinese_cp(cp: u32) -> bool {
    matches!(
        cp,
        0x2001..=0x2A6D
            | 0x2E80..=0x2FDF
            | 0x2FF0..=0x303F
            | 0x3100..=0x312F
            | 0x31A0..=0x31EF
            | 0x3200..=0x4DB5
            | 0x4E00..=0x9FBB
            | 0xF900..=0xFA2D
            | 0xFA30..=0xFA6A
            | 0xFA70..=0xFAD9
            | 0xFE10..=0xFE1F
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFFEF
    )
}

#[cfg(test)]
mod tests {
    use super::super::Tokenizer;
    use super::*;

    fn tok(s: &str) -> String {
        let mut buf = TokBuf::default();
        Tokenizer::Zh.tokenize(s, &mut buf, true).to_string()
    }

    #[test]
    fn sacrebleu_examples() {
        // Outputs of TokenizerZh()(s), sacreBLEU 2.6.0.
        assert_eq!(tok("我爱北京天安门。"), "我 爱 北 京 天 安 门 。");
        assert_eq!(
            tok("  2023年GDP增长5.2%，达到1,260,582亿元。 "),
            "2023 年 GDP 增 长 5.2 % ， 达 到 1,260,582 亿 元 。"
        );
        assert_eq!(
            tok("他说：“你好！”Hello, world."),
            "他 说 ： “ 你 好 ！ ” Hello , world ."
        );
        assert_eq!(tok("a…b—c €5 → x"), "a … b — c € 5 → x");
        assert_eq!(tok("𠀀𠀁 astral"), "𠀀𠀁 astral");
        assert_eq!(tok("&quot;<skipped>1-2"), "& quot ; < skipped > 1 - 2");
        assert_eq!(tok(""), "");
    }

    #[test]
    fn issue_298_ranges() {
        assert!(!is_chinese_cp(0x2000));
        assert!(is_chinese_cp(0x2001));
        assert!(is_chinese_cp(0x2A6D));
        assert!(!is_chinese_cp(0x2A6E));
        assert!(!is_chinese_cp(0x20000));
        assert!(!is_chinese_cp(0x2F800));
        assert!(!is_chinese_cp(u32::from(b'a')));
    }

    #[test]
    fn lead_byte_filter_is_sound() {
        // The byte scan only decodes lead bytes 0xE2..=0xEF; every split character has one.
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if is_chinese_cp(c as u32) {
                let mut utf8 = [0u8; 4];
                let enc = c.encode_utf8(&mut utf8).as_bytes();
                assert!(
                    enc.len() == 3 && (0xE2..=0xEF).contains(&enc[0]),
                    "U+{:04X}",
                    c as u32
                );
            }
        }
    }
}
