//! Unicode category tables for `intl` (placeholder, generated later).
