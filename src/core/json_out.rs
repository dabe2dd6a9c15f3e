//! Compact JSON written straight into bytes, for what is written once a game: a record's deal and
//! end ([`Wire::write_deal`](crate::core::Wire::write_deal), [`Wire::write_reveal`](crate::core::Wire::write_reveal)) and its events.
//!
//! serde_json writes the same bytes, but a record is written for every game a run plays, and
//! through serde a hand's twenty cards and its fields cost as many instructions as playing the
//! hand (issue 47): each card went through `Display`, the formatting machinery and serde's
//! escaping writer. Here a card is four bytes copied, a number its digits, a field name one
//! copy. What is written must stay byte for byte what serde_json writes for the same value:
//! the games' tests compare the two on many deals, and tests/data/records/ holds records made
//! before this writer existed.

use std::fmt::{self, Display};

use crate::cards::Card;

/// A value that appends itself to `out` as compact JSON, exactly as `serde_json::to_writer`
/// writes its serde form.
pub trait Json {
    /// Appends the value's JSON.
    fn json(&self, out: &mut Vec<u8>);
}

macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl Json for $t {
            #[inline]
            fn json(&self, out: &mut Vec<u8>) {
                // A seat, a hand's number, an ante: most are one digit.
                #[allow(unused_comparisons)]
                if *self >= 0 && *self <= 9 {
                    out.push(b'0' + *self as u8);
                } else {
                    out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
                }
            }
        }
    )*};
}
whole_numbers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl Json for bool {
    fn json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}

impl Json for str {
    fn json(&self, out: &mut Vec<u8>) {
        push_str(out, self);
    }
}

impl Json for String {
    fn json(&self, out: &mut Vec<u8>) {
        push_str(out, self);
    }
}

/// `"Ah"`: the card's two letters, as its `Display` writes them.
impl Json for Card {
    #[inline(always)]
    fn json(&self, out: &mut Vec<u8>) {
        let [rank, suit] = self.letters();
        out.extend_from_slice(&[b'"', rank, suit, b'"']);
    }
}

/// A list of cards as a JSON array of their names (`["Ah","Td"]`), the same as the list's own
/// [`Json`], written into a buffer on the stack and copied once: a hand's record writes a dozen
/// or two such lists, and card by card each card's bytes were a check of the vector's room.
#[derive(Clone, Copy, Debug)]
pub struct Cards<C>(pub C);

impl<C: AsRef<[Card]>> Json for Cards<C> {
    fn json(&self, out: &mut Vec<u8>) {
        let cards = self.0.as_ref();
        // A hand or a board (a small buffer is quick to clear); a longer list goes card by card.
        const MOST: usize = 8;
        let mut buf = [0u8; 2 + 5 * MOST];
        if cards.len() > MOST {
            return array(out, cards);
        }
        buf[0] = b'[';
        let mut at = 1;
        for card in cards {
            let [rank, suit] = card.letters();
            buf[at..at + 5].copy_from_slice(&[b'"', rank, suit, b'"', b',']);
            at += 5;
        }
        // The last comma (or, with no card, the opening bracket's place after it) closes the list.
        if cards.is_empty() {
            at += 1;
        }
        buf[at - 1] = b']';
        out.extend_from_slice(&buf[..at]);
    }
}

impl<T: Json + ?Sized> Json for &T {
    #[inline(always)]
    fn json(&self, out: &mut Vec<u8>) {
        (**self).json(out);
    }
}

/// `null` for none.
impl<T: Json> Json for Option<T> {
    #[inline]
    fn json(&self, out: &mut Vec<u8>) {
        match self {
            Some(value) => value.json(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

impl<T: Json> Json for [T] {
    fn json(&self, out: &mut Vec<u8>) {
        array(out, self);
    }
}

impl<T: Json, const N: usize> Json for [T; N] {
    fn json(&self, out: &mut Vec<u8>) {
        array(out, self);
    }
}

impl<T: Json> Json for Vec<T> {
    fn json(&self, out: &mut Vec<u8>) {
        array(out, self);
    }
}

/// A JSON array of what an iterator gives (walked on a clone, so writing twice writes the same).
#[derive(Clone, Copy, Debug)]
pub struct Array<I>(pub I);

impl<I> Json for Array<I>
where
    I: Iterator + Clone,
    I::Item: Json,
{
    fn json(&self, out: &mut Vec<u8>) {
        array(out, self.0.clone());
    }
}

/// A value written by a closure (a nested object: `With(|out| Object::new(out).field(..).end())`).
#[derive(Clone, Copy, Debug)]
pub struct With<F>(pub F);

impl<F: Fn(&mut Vec<u8>)> Json for With<F> {
    fn json(&self, out: &mut Vec<u8>) {
        (self.0)(out);
    }
}

/// Appends `items` as a JSON array.
#[inline]
pub fn array<T: Json>(out: &mut Vec<u8>, items: impl IntoIterator<Item = T>) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        item.json(out);
    }
    out.push(b']');
}

/// A JSON object written field by field, in the order the fields are given (as serde writes a
/// struct's fields in their declared order).
pub struct Object<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

impl<'a> Object<'a> {
    /// Opens the object.
    pub fn new(out: &'a mut Vec<u8>) -> Object<'a> {
        out.push(b'{');
        Object { out, empty: true }
    }

    /// Appends `"key":value`. The key is written as it is: a field's name, which needs no
    /// escaping. Inlined, so that the key's copy is one of a known length, not a call.
    #[inline(always)]
    pub fn field(&mut self, key: &str, value: &(impl Json + ?Sized)) -> &mut Self {
        debug_assert!(!needs_escape(key.as_bytes()), "a field name needing escapes: {key:?}");
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        value.json(self.out);
        self
    }

    /// Closes the object.
    pub fn end(&mut self) {
        self.out.push(b'}');
    }
}

/// Appends `text` as a JSON string: copied as it is unless it holds a byte JSON escapes (action
/// texts, cards and chance events never do), in which case serde_json writes it.
pub fn push_str(out: &mut Vec<u8>, text: &str) {
    if needs_escape(text.as_bytes()) {
        serde_json::to_writer(&mut *out, text).expect("a string serialises");
        return;
    }
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// Appends `"word N"` (an action text such as `raise 300`): `word` and its space as they are,
/// then the number's digits.
#[inline]
pub fn push_word_number(out: &mut Vec<u8>, word_and_space: &[u8], n: impl Json) {
    out.push(b'"');
    out.extend_from_slice(word_and_space);
    n.json(out);
    out.push(b'"');
}

/// [`push_str`] for text already known to be UTF-8, as bytes (the texts of a
/// [`Texts`](crate::core::wire::Texts)).
#[inline]
pub fn push_text_bytes(out: &mut Vec<u8>, text: &[u8]) {
    if needs_escape(text) {
        let text = std::str::from_utf8(text).expect("a text is UTF-8");
        serde_json::to_writer(&mut *out, text).expect("a string serialises");
        return;
    }
    out.push(b'"');
    out.extend_from_slice(text);
    out.push(b'"');
}

/// Appends what `text`'s `Display` writes as a JSON string (an action text), without building a
/// `String`.
pub fn push_display(out: &mut Vec<u8>, text: impl Display) {
    let start = out.len();
    out.push(b'"');
    fmt::write(&mut Bytes(out), format_args!("{text}")).expect("writing to a Vec cannot fail");
    if needs_escape(&out[start + 1..]) {
        let raw = String::from_utf8(out.split_off(start + 1)).expect("a Display writes UTF-8");
        out.truncate(start);
        serde_json::to_writer(&mut *out, &raw).expect("a string serialises");
        return;
    }
    out.push(b'"');
}

/// Whether JSON writes `bytes` with escapes: a quote, a backslash or a control character (what
/// serde_json escapes; everything else, UTF-8 included, is written as it is).
///
/// Eight bytes at a time (a text of a record is some ten to four hundred bytes): a byte is zero
/// in `x ^ repeated(c)` where `x` holds `c`, and `x - repeated(0x20)` borrows into a byte's top
/// bit where that byte is below 0x20 (bytes of 0x80 and up, UTF-8's, are masked out by `!x`).
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const TOPS: u64 = ONES * 0x80;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * n as u64) & !x & TOPS;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let x = u64::from_ne_bytes(word.try_into().expect("eight bytes"));
        if below(x, 0x20) | below(x ^ (ONES * b'"' as u64), 1) | below(x ^ (ONES * b'\\' as u64), 1) != 0 {
            return true;
        }
    }
    words.remainder().iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20)
}

/// `fmt::Write` into bytes: what a `Display` writes, appended as it is (the `io::Write` adapter
/// of `write!` on a `Vec<u8>` costs more for short texts).
struct Bytes<'a>(&'a mut Vec<u8>);

impl fmt::Write for Bytes<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(value: &(impl Json + ?Sized)) -> String {
        let mut out = Vec::new();
        value.json(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn values_are_written_as_serde_json_writes_them() {
        assert_eq!(written(&-42i64), serde_json::to_string(&-42i64).unwrap());
        for n in [-11i64, -10, -9, -1, 0, 1, 9, 10, 11, 99, 100, i64::MIN, i64::MAX] {
            assert_eq!(written(&n), serde_json::to_string(&n).unwrap());
        }
        for n in [0u8, 9, 10, 255] {
            assert_eq!(written(&n), n.to_string());
        }
        assert_eq!(written(&u64::MAX), serde_json::to_string(&u64::MAX).unwrap());
        assert_eq!(written(&true), "true");
        assert_eq!(written(&Some(3u8)), "3");
        assert_eq!(written(&None::<u8>), "null");
        assert_eq!(written(&[1u32, 2, 3]), "[1,2,3]");
        assert_eq!(written(&Vec::<u32>::new()), "[]");
        let cards: Vec<Card> = Card::all().collect();
        let names: Vec<String> = cards.iter().map(Card::to_string).collect();
        assert_eq!(written(&cards), serde_json::to_string(&names).unwrap());
        assert_eq!(written(&Array([Some([1, 2]), None].into_iter())), "[[1,2],null]");
        for n in [0, 1, 2, 5, 7, 8, 9, 52] {
            assert_eq!(written(&Cards(&cards[..n])), written(&cards[..n]), "{n} cards");
        }
        let twice: Vec<Card> = cards.iter().chain(&cards).copied().collect();
        assert_eq!(written(&Cards(&twice)), written(&twice));
    }

    #[test]
    fn a_byte_needing_an_escape_is_found_wherever_it_is() {
        for len in 0..40 {
            for at in 0..len {
                for b in (0..=255u8).filter(|&b| b != b'a') {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    let want = b == b'"' || b == b'\\' || b < 0x20;
                    assert_eq!(needs_escape(&text), want, "{len} {at} {b}");
                }
            }
            assert!(!needs_escape(&vec![b'a'; len]));
        }
        assert!(!needs_escape("五子棋 ♠K é".as_bytes()));
    }

    #[test]
    fn an_object_writes_its_fields_in_order() {
        let mut out = Vec::new();
        Object::new(&mut out).field("a", &1u8).field("b", "two").field("c", &[None, Some(true)]).end();
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"a":1,"b":"two","c":[null,true]}"#);
        let mut empty = Vec::new();
        Object::new(&mut empty).end();
        assert_eq!(empty, b"{}");
    }

    #[test]
    fn a_text_is_written_as_the_json_string_serde_writes() {
        let long = "a text longer than a card or an action, \"quoted\" ".repeat(3);
        for text in ["raise 300", "7,7", "say \"hi\"", "back\\slash", "line\nbreak", "tab\t", "", "五子棋", &long] {
            let want = serde_json::to_vec(text).unwrap();
            let mut out = b"[".to_vec();
            push_display(&mut out, text);
            assert_eq!(out[1..], want[..], "{text:?}");
            assert_eq!(out[0], b'[');
            let mut out = b"[".to_vec();
            push_str(&mut out, text);
            assert_eq!(out[1..], want[..], "{text:?}");
            let mut out = b"[".to_vec();
            push_text_bytes(&mut out, text.as_bytes());
            assert_eq!(out[1..], want[..], "{text:?}");
        }
    }
}
