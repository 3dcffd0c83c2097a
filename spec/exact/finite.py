"""Exact statements: finite (filled in by its issue)."""

from __future__ import annotations

from spec.statement import Statement

STATEMENTS: tuple[Statement, ...] = ()
