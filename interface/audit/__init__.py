"""interface/audit/."""
