"""FMT21: Feldman, McMillan, Talwar, "Hiding among the clones: a simple and nearly optimal analysis of
privacy amplification by shuffling" (FOCS 2021, arXiv:2012.12803).

Seed: `shared/seeds/FMT21-hiding-among-the-clones.md`; recovered statements and the full version's
numbering: `shared/statements/fmt21.md`. The paper's statements are split by concept: closed forms
and frequency estimation (`closed_forms`), the numerical clone bound (`clones`).
"""

from .clones import STATEMENTS as _CLONES
from .closed_forms import STATEMENTS as _CLOSED_FORMS
from ...statement import Statement

STATEMENTS: tuple[Statement, ...] = _CLOSED_FORMS + _CLONES
