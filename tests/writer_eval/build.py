"""Build the writer evaluation set: statements.jsonl and pairs.jsonl, deterministically (seeded).

Run: `.venv/bin/python tests/writer_eval/build.py` (from the checkout). It also refreshes the counts
in README.md and checks that no statement repeats a sentence of the repository's other tests.

The split is made *before* any measurement, by template (and by paraphrase group, and by pair
template): within each (class, language) stratum, the template ids are shuffled with a fixed seed
and the first 60% go to `tune`, the rest to `heldout`. All statements of one template share its split.
"""

from __future__ import annotations

import json
import random
import re
import string
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fillers  # noqa: E402
from pairs import pair_frames  # noqa: E402
from paraphrases import PARAPHRASES  # noqa: E402
from templates import SENSITIVE_CATEGORIES, Template, all_templates  # noqa: E402

SEED = "memvault-writer-eval-1"
FILLS_PER_TEMPLATE = 6
FILLS_PER_PAIR = 8
TUNE_SHARE = 0.6
MEMORY_TYPES = (
    "FACT", "PREFERENCE", "DECISION", "PROJECT", "PROJECT_STATE", "GOAL", "CONSTRAINT", "DISCOVERY", "WORKFLOW",
    "SUCCESSFUL_APPROACH", "FAILED_APPROACH", "OPEN_QUESTION", "NEXT_ACTION", "USER_CORRECTION",
)  # fmt: skip
STATEMENTS = HERE / "statements.jsonl"
PAIRS = HERE / "pairs.jsonl"
README = HERE / "README.md"


# -- labels -----------------------------------------------------------------------------------------


def labels_of(spec: str) -> dict[str, Any]:
    """The labels a spec names (templates.py): class flags, sensitive category, type, hard negative."""
    parts = dict(p.split("=", 1) if "=" in p else (p, "1") for p in spec.split())
    unknown = set(parts) - {"secret", "sens", "mood", "type", "neg"}
    if unknown:
        raise ValueError(f"unknown label(s) {unknown} in {spec!r}")
    secret, mood, sens = "secret" in parts, "mood" in parts, parts.get("sens")
    kind = parts.get("type")
    if sens is not None and sens not in SENSITIVE_CATEGORIES:
        raise ValueError(f"unknown sensitive category {sens!r}")
    if kind is not None and kind not in MEMORY_TYPES:
        raise ValueError(f"unknown type {kind!r}")
    ordinary = not (secret or mood or sens)
    if (ordinary or (sens and not secret)) and kind is None:
        raise ValueError(f"a storable statement needs a type: {spec!r}")
    primary = "secret" if secret else "sensitive" if sens else "mood" if mood else "ordinary"
    return {
        "class": primary,
        "secret": secret,
        "sensitive": sens,
        "mood": mood,
        "ordinary": ordinary,
        "type": kind,
        "hard_negative": parts.get("neg"),
    }


# -- filling ----------------------------------------------------------------------------------------


def fields_of(frame: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(frame) if f]


def fill(frames: Iterable[str], lang: str, rng: random.Random) -> dict[str, Any]:
    """One value per slot of the frames; numbered slots of one list (`city`, `city2`) differ."""
    values: dict[str, Any] = {}
    for field in (f for frame in frames for f in fields_of(frame)):
        name = field.split("[", 1)[0]
        if name in values:
            continue
        base = fillers.base_slot(name)
        taken = [v for k, v in values.items() if fillers.base_slot(k) == base]
        for _ in range(50):
            candidate = fillers.value(base, lang, rng)
            if candidate not in taken:
                break
        values[name] = candidate
    return values


def render(frame: str, values: dict[str, Any]) -> str:
    text = frame.format(**values)
    return re.sub(r"\s+", " ", text).strip()


# -- split ------------------------------------------------------------------------------------------


def split_of(keys: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """`tune` or `heldout` for each key, ~60/40 within each stratum, seeded."""
    strata: dict[tuple[str, ...], list[str]] = {}
    for key, stratum in keys.items():
        strata.setdefault(stratum, []).append(key)
    out = {}
    for stratum, keys_of_stratum in sorted(strata.items()):
        members = sorted(keys_of_stratum)
        random.Random(f"{SEED}:split:{':'.join(stratum)}").shuffle(members)
        cut = round(len(members) * TUNE_SHARE)
        out.update({k: ("tune" if i < cut else "heldout") for i, k in enumerate(members)})
    return out


# -- statements -------------------------------------------------------------------------------------


def statements() -> list[dict[str, Any]]:
    templates = all_templates()
    splits = split_of({t.id: _stratum(t) for t in templates})
    groups = sorted({g for g, *_ in PARAPHRASES})
    group_lang = {g: lang for g, lang, *_ in PARAPHRASES}
    splits |= split_of({f"para-{g}": ("paraphrase", group_lang[g]) for g in groups})
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for template in templates:
        rows += _from_template(template, splits[template.id], seen)
    counter: Counter[str] = Counter()
    for group, lang, spec, text in PARAPHRASES:
        counter[group] += 1
        key = f"para-{group}"
        if text in seen:
            raise ValueError(f"paraphrase repeats a statement: {text!r}")
        seen.add(text)
        rows.append(
            {
                "id": f"{key}-{counter[group]:02d}",
                "text": text,
                "lang": lang,
                "labels": labels_of(spec) | ({"secret_kind": "hand-written"} if "secret" in spec.split() else {}),
                "template_id": key,
                "source": "paraphrase",
                "split": splits[key],
            }
        )
    return rows


# The kind of secret a template holds, from the slots it uses (the first that applies).
SECRET_KINDS = (
    ("seed phrase", {"seed"}),
    ("card number", {"card"}),
    ("IBAN", {"iban"}),
    ("key split in two", {"split"}),
    ("API key or token", {"api_key", "jwt", "aws"}),
    ("one-time or recovery code", {"otp", "otp_spaced", "recovery_codes"}),
    ("code in words", {"pin_words"}),
    ("code as key presses", {"pin_dashed"}),
    ("PIN, door or alarm code", {"pin4", "pin6", "door_code", "combo", "puk"}),
    ("wifi key", {"wifi_key"}),
    ("password", {"password"}),
)


def secret_kind(frame: str) -> str:
    slots = {fillers.base_slot(f.split("[", 1)[0]) for f in fields_of(frame)}
    return next((kind for kind, names in SECRET_KINDS if slots & names), "other")


def _stratum(template: Template) -> tuple[str, ...]:
    """Secrets and moods by language; sensitive matters by language and category; ordinary statements
    by language and by the class a hard negative imitates (so each split holds some of each)."""
    labels = labels_of(template.spec)
    if template.group == "sensitive":
        return (template.group, template.lang, labels["sensitive"])
    if template.group == "ordinary":
        return (template.group, template.lang, labels["hard_negative"] or "plain")
    return (template.group, template.lang)


def _from_template(template: Template, split: str, seen: set[str]) -> list[dict[str, Any]]:
    labels = labels_of(template.spec)
    if labels["secret"]:
        labels["secret_kind"] = secret_kind(template.frame)
    if labels["class"] != template.group and not (template.group == "secret" and labels["secret"]):
        raise ValueError(f"{template.id}: labels {template.spec!r} do not fit the group {template.group}")
    rows = []
    for attempt in range(FILLS_PER_TEMPLATE * 4):
        if len(rows) == FILLS_PER_TEMPLATE:
            break
        rng = random.Random(f"{SEED}:{template.id}:{attempt}")
        text = render(template.frame, fill([template.frame], template.lang, rng))
        if text in seen:
            continue
        seen.add(text)
        rows.append(
            {
                "id": f"{template.id}-{len(rows) + 1}",
                "text": text,
                "lang": template.lang,
                "labels": labels,
                "template_id": template.id,
                "source": "template",
                "split": split,
            }
        )
    return rows


# -- pairs ------------------------------------------------------------------------------------------


def pairs() -> list[dict[str, Any]]:
    frames = pair_frames()
    splits = split_of({pid: (label, lang) for pid, label, lang, _, _ in frames})
    rows = []
    for pid, label, lang, old, new in frames:
        seen: set[tuple[str, str]] = set()
        for attempt in range(FILLS_PER_PAIR * 4):
            if len(seen) == FILLS_PER_PAIR:
                break
            rng = random.Random(f"{SEED}:{pid}:{attempt}")
            values = fill([old, new], lang, rng)
            pair = (render(old, values), render(new, values))
            if pair in seen or pair[0] == pair[1]:
                continue
            seen.add(pair)
            rows.append(
                {
                    "id": f"{pid}-{len(seen)}",
                    "existing": pair[0],
                    "text": pair[1],
                    "lang": lang,
                    "labels": {"change": label},
                    "template_id": pid,
                    "split": splits[pid],
                }
            )
    return rows


# -- checks and counts ------------------------------------------------------------------------------


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text)).strip()


def overlaps_with_repository_tests(texts: Iterable[str]) -> list[str]:
    """Statements (20+ characters) that appear, normalised, in a file of the repository's other tests."""
    tests = HERE.parent
    corpus = []
    for path in tests.rglob("*"):
        if path.is_file() and HERE not in path.parents and path.suffix in {".py", ".json", ".jsonl", ".md", ".txt"}:
            corpus.append(_norm(path.read_text(encoding="utf-8", errors="replace")))
    blob = "\n".join(corpus)
    return [t for t in texts if len(_norm(t)) >= 20 and _norm(t) in blob]


def _table(counter: Counter[tuple[str, str]], rows: list[str], columns: list[str], title: str) -> list[str]:
    out = [f"| {title} | " + " | ".join(columns) + " | total |", "|---" * (len(columns) + 2) + "|"]
    for r in rows:
        cells = [counter[(r, c)] for c in columns]
        out.append(f"| {r} | " + " | ".join(str(c) for c in cells) + f" | {sum(cells)} |")
    totals = [sum(counter[(r, c)] for r in rows) for c in columns]
    out.append("| total | " + " | ".join(str(t) for t in totals) + f" | {sum(totals)} |")
    return out


def counts_markdown(stmts: list[dict[str, Any]], prs: list[dict[str, Any]]) -> str:
    langs = ["en", "de", "fr", "es"]
    cols = [f"{lang} {s}" for lang in langs for s in ("tune", "heldout")]
    by_class: Counter[tuple[str, str]] = Counter()
    for s in stmts:
        col = f"{s['lang']} {s['split']}"
        lab = s["labels"]
        by_class[("secret", col)] += lab["secret"]
        by_class[("sensitive", col)] += lab["sensitive"] is not None
        by_class[("mood", col)] += lab["mood"]
        by_class[("ordinary", col)] += lab["ordinary"]
        by_class[("(ordinary: hard negatives)", col)] += lab["hard_negative"] is not None
        by_class[("(from paraphrases)", col)] += s["source"] == "paraphrase"
    for s in stmts:
        by_class[("statements", f"{s['lang']} {s['split']}")] += 1
    statement_rows = [
        "secret", "sensitive", "mood", "ordinary", "(ordinary: hard negatives)", "(from paraphrases)", "statements",
    ]  # fmt: skip
    lines = [f"Statements: {len(stmts)} ({sum(s['source'] == 'template' for s in stmts)} from "
             f"{len({s['template_id'] for s in stmts if s['source'] == 'template'})} templates, "
             f"{sum(s['source'] == 'paraphrase' for s in stmts)} hand-written in "
             f"{len({s['template_id'] for s in stmts if s['source'] == 'paraphrase'})} groups). "
             "A statement can carry two classes (a secret about a sensitive matter), so a column's "
             "classes can add up to more than its statements.", ""]  # fmt: skip
    lines += _table(by_class, statement_rows, cols, "class")[:-1]  # no sum over classes: they overlap
    cats: Counter[tuple[str, str]] = Counter()
    kinds: Counter[tuple[str, str]] = Counter()
    negs: Counter[tuple[str, str]] = Counter()
    for s in stmts:
        lab = s["labels"]
        if lab["sensitive"]:
            cats[(lab["sensitive"], s["split"])] += 1
        if lab["type"] and not lab["secret"]:
            kinds[(lab["type"], s["split"])] += 1
        if lab["hard_negative"]:
            negs[(f"looks like {lab['hard_negative']}", s["split"])] += 1
    splits = ["tune", "heldout"]
    lines += ["", *_table(cats, list(SENSITIVE_CATEGORIES), splits, "sensitive category")]
    lines += ["", *_table(kinds, [k for k in MEMORY_TYPES if any(kinds[(k, s)] for s in splits)], splits, "type")]
    lines += ["", *_table(negs, sorted({k for k, _ in negs}), splits, "hard negatives")]
    pair_counts: Counter[tuple[str, str]] = Counter()
    for p in prs:
        pair_counts[(p["labels"]["change"], f"{p['lang']} {p['split']}")] += 1
    lines += ["", f"Pairs: {len(prs)} from {len({p['template_id'] for p in prs})} pair templates.", ""]
    lines += _table(pair_counts, ["SUPERSEDE", "DUPLICATE", "ADD"], cols, "pair label")
    return "\n".join(lines)


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def build(check: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    stmts, prs = statements(), pairs()
    if check:
        found = overlaps_with_repository_tests(
            [s["text"] for s in stmts] + [t for p in prs for t in (p["existing"], p["text"])]
        )
        if found:
            raise SystemExit("statements found in the repository's other tests:\n" + "\n".join(found[:20]))
    _write_jsonl(STATEMENTS, stmts)
    _write_jsonl(PAIRS, prs)
    counts = counts_markdown(stmts, prs)
    if README.exists():
        text = README.read_text(encoding="utf-8")
        start, end = "<!-- counts:start -->", "<!-- counts:end -->"
        if start in text and end in text:
            head, rest = text.split(start, 1)
            tail = rest.split(end, 1)[1]
            README.write_text(f"{head}{start}\n{counts}\n{end}{tail}", encoding="utf-8")
    print(counts)
    return stmts, prs


if __name__ == "__main__":
    build(check="--no-check" not in sys.argv)
