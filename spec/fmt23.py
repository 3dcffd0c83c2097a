"""Statements of fmt23 (filled in by its issue)."""

from __future__ import annotations

from spec.statement import Statement

STATEMENTS: tuple[Statement, ...] = ()
