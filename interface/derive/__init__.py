"""interface/derive/."""
