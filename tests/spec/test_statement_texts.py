"""What a statement says about itself in words: its title names its direction where the id could mislead,
and its texts cite sources a user can find (papers, public repositories, proof modules), never internal
work notes or files."""

import re

import pytest

from shuffle_spec.spec.registry import list_statements
from shuffle_spec.spec.statement import Direction


STATEMENTS = list_statements()

# "exact" in an id means three things: the exact value (direction exact), a lower bound (the exact divergence of
# one neighbouring pair: exact.krr_pair_*, exact.shuffled_binary_rr.pair, compose.exact_binary_rr, ...) and an
# upper bound (BBGN19.Lem5.3.exact_*: Lemma 5.3 evaluated exactly). The title says which.
DIRECTION_WORDS = {Direction.LOWER_BOUND: "lower bound", Direction.UPPER_BOUND: "upper bound"}
EXACT_IN_ID_NOT_EXACT = [s for s in STATEMENTS if "exact" in s.id and s.direction is not Direction.EXACT]


def test_the_ids_with_exact_cover_both_bound_directions():
    """The rule below is not vacuous: both readings of "exact" that are not the exact value are registered."""
    directions = {s.direction for s in EXACT_IN_ID_NOT_EXACT}
    assert {Direction.LOWER_BOUND, Direction.UPPER_BOUND} <= directions
    assert {"exact.krr_pair_third", "compose.exact_binary_rr", "BBGN19.Lem5.3.exact_krr"} <= {s.id for s in EXACT_IN_ID_NOT_EXACT}


@pytest.mark.parametrize("statement", EXACT_IN_ID_NOT_EXACT, ids=lambda s: s.id)
def test_a_bound_whose_id_says_exact_says_its_direction_in_its_title(statement):
    words = DIRECTION_WORDS[statement.direction]
    assert statement.title.lower().startswith(words), f"{statement.id}: title should start with {words!r}: {statement.title!r}"
    other = DIRECTION_WORDS[Direction.UPPER_BOUND if statement.direction is Direction.LOWER_BOUND else Direction.LOWER_BOUND]
    assert other not in statement.title.lower()


# Work items, work rounds and the internal files the statements were recovered from: nothing a user can look up.
INTERNAL = re.compile(
    r"[Ii]ssue \d|[Ii]tem ?\d|\bround \d|work package|shared/|seeds/|\bS00\d\b|\bS-[A-Za-z]+\b|checks? [A-Z]\d"
    r"|\b\w+\.md\b|§T|statements file|\b(APPLE|SMARTNOISE|WANG|ERRATA)\b"
)


def _texts(statement) -> dict[str, str]:
    source = statement.source
    return {
        "title": statement.title,
        "source": f"{source.paper} | {source.locator} | {source.version}",
        "notes": statement.notes,
        "hypothesis names": " | ".join(statement.hypothesis_names),
    }


@pytest.mark.parametrize("statement", STATEMENTS, ids=lambda s: s.id)
def test_statement_texts_cite_nothing_internal(statement):
    for field, text in _texts(statement).items():
        found = INTERNAL.search(text)
        assert found is None, f"{statement.id} {field}: {found.group(0)!r} in {text!r}"


def test_the_internal_pattern_catches_what_it_is_for():
    for text in ("issue 15 construction", "shared/statements/fmt21.md", "S003 Sec. 3", "checks F4-F5", "round 2 did not",
                 "bbgn19.md section 8", "APPLE README", "(§T-A)"):
        assert INTERNAL.search(text), text
    for text in ("Lemma 5.3", "arXiv 2012.12803 Appendix E", "v2 (CRYPTO 2019), seed 002", "github.com/apple/ml-shuffling-amplification"):
        assert INTERNAL.search(text) is None, text
