//! UTF-16 offsets of byte offsets: the answers speak JavaScript string positions.

/// Converts byte offsets of one source to UTF-16 offsets. Queries mostly come in increasing order
/// (matches by position, captures inside them), so it walks on from the last answer and starts over
/// only when asked about an earlier offset.
pub struct Utf16Offsets<'s> {
  source: &'s str,
  ascii: bool,
  byte: usize,
  unit: usize,
}

impl<'s> Utf16Offsets<'s> {
  pub fn new(source: &'s str) -> Self {
    Self { source, ascii: source.is_ascii(), byte: 0, unit: 0 }
  }

  /// The UTF-16 offset of a byte offset on a character boundary.
  pub fn of(&mut self, byte: usize) -> usize {
    if self.ascii {
      return byte;
    }
    if byte < self.byte {
      self.byte = 0;
      self.unit = 0;
    }
    self.unit += units(&self.source[self.byte..byte]);
    self.byte = byte;
    self.unit
  }
}

/// How many UTF-16 code units a string has.
pub fn units(text: &str) -> usize {
  text.chars().map(char::len_utf16).sum()
}

/// The text clipped to `limit` UTF-16 code units, ending in `…` when it was longer.
pub fn clip(text: &str, limit: usize) -> String {
  if units(text) <= limit {
    return text.to_string();
  }
  let mut clipped = String::new();
  let mut used = 0;
  for character in text.chars() {
    if used + character.len_utf16() > limit - 1 {
      break;
    }
    used += character.len_utf16();
    clipped.push(character);
  }
  clipped.push('…');
  clipped
}
