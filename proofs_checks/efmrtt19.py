"""Proof checks for efmrtt19 (filled in by its issue)."""

from __future__ import annotations
