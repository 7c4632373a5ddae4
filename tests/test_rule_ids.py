"""The rules reference and the tests agree: every rule of docs/rules.md is cited by a test,
every rule ID cited in the code names a rule of docs/rules.md, and the page stands alone
(it points nowhere outside the repository)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGE = ROOT / "docs" / "rules.md"
RULE = re.compile(r"\*\*(R-[A-Z]+-\d+)\*\*")
CITED = re.compile(r"(?<![A-Z0-9])R-[A-Z]+-\d+(?!\d)")
SUFFIXES = {".py", ".json", ".toml", ".js", ".ts"}


def defined_rules() -> list[str]:
    return RULE.findall(RULES_PAGE.read_text())


def citations(folder: Path) -> dict[str, set[str]]:
    """Rule ID -> files citing it (dashes or underscores, any case, as test names do)."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file() or path == Path(__file__).resolve():
            continue
        text = path.read_text(errors="replace").upper().replace("_", "-")
        for rule in CITED.findall(text):
            found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_rule_has_one_id_on_the_rules_page() -> None:
    rules = defined_rules()
    assert len(rules) >= 69
    assert len(rules) == len(set(rules)), "a rule ID is defined twice"


def test_every_rule_is_cited_by_a_test() -> None:
    cited = citations(ROOT / "tests")
    missing = [rule for rule in defined_rules() if rule not in cited]
    assert not missing, f"rules no test cites: {missing}"


def test_every_cited_rule_exists() -> None:
    known = set(defined_rules())
    for folder in ("tests", "src"):
        cited = citations(ROOT / folder)
        unknown = {rule: files for rule, files in cited.items() if rule not in known}
        assert not unknown, f"IDs cited in {folder}/ but not defined in docs/rules.md: {unknown}"


def test_the_rules_page_points_nowhere_outside_the_repository() -> None:
    text = RULES_PAGE.read_text()
    assert "../" not in text and "/work/" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert not target.startswith(("http", "/")), target
        assert (RULES_PAGE.parent / target).exists(), target
