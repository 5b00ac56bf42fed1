"""Measure today's writer judgements on the writer evaluation set (statements.jsonl, pairs.jsonl).

Run from the checkout: `.venv/bin/python tests/writer_eval/measure.py
[--split heldout|tune|both|fresh|fresh2|fresh2-tune|fresh3|fresh3-tune] [--json FILE] [--show N] [--embeddings on|off]`.
Builds the set first when the files are missing.

What is measured, as the code stands (nothing here changes or tunes a rule):

- secret: the writer gate, `core.writer.gate.rejection(text)`, counted as a secret finding when its
  reason is the secret one ("refused: it looks like it holds a secret ...").
- mood: the same gate's chatter rule or its passing-mood head (`core.writer.mood`): reason "refused:
  nothing durable to remember ..." or "refused: a passing mood ...".
- false refusals: ordinary statements the gate refuses for either reason.
- sensitive: the writer's judgement, `core.writer.sensitivity.of(text, caller's value)`, which every
  write path applies (memory_add, memory_propose, the person's own writes, import): `sensitive` is
  what automatic mode stages; also how many ordinary statements it calls `personal` or `sensitive`.
- type: (a) `memory_add`'s type for a statement sent without one (FACT); (b) the importer's cue
  rules, `core.importers.extract.candidates` on a one-turn conversation (None: not extracted).
- pairs: each pair in a fresh encrypted store: the person adds the existing statement, then a local
  assistant in review-before-write mode calls `memory_propose` with the new one (classification:
  NO_CHANGE -> DUPLICATE, SUPERSEDE, ADD, ARCHIVE, or REJECTED by the gate) and then `memory_add`
  (an answer `duplicate` when the pair is not one is an acknowledged write lost).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SECRET_REASON = "refused: it looks like it holds a secret"
CHATTER_REASONS = ("refused: nothing durable to remember", "refused: a passing mood")
PAIR_LABELS = ("SUPERSEDE", "DUPLICATE", "ADD")
PREDICTED_PAIR = ("SUPERSEDE", "DUPLICATE", "ADD", "ARCHIVE", "REJECTED")
_BY_CLASSIFICATION = {"NO_CHANGE": "DUPLICATE", "SUPERSEDE": "SUPERSEDE", "ADD": "ADD", "ARCHIVE": "ARCHIVE"}


# -- environment (before memvault is imported) ------------------------------------------------------


def sandbox(embeddings: bool) -> Path:
    """A private temp home: no real store, settings or keyring is touched."""
    root = Path(tempfile.mkdtemp(prefix="memvault-writer-eval-"))
    for folder in ("config", "data", "runtime", "home"):
        (root / folder).mkdir(mode=0o700)
    os.environ.update(
        {
            "MEMVAULT_HOME": str(root / "home"),
            "XDG_CONFIG_HOME": str(root / "config"),
            "XDG_DATA_HOME": str(root / "data"),
            "XDG_RUNTIME_DIR": str(root / "runtime"),
            "MEMVAULT_PASSPHRASE": "writer evaluation (fictional passphrase)",
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
            "MEMVAULT_EMBEDDINGS": "local" if embeddings else "off",
        }
    )
    os.environ.pop("MEMVAULT_WRITE_MODE", None)  # the default: review-before-write
    return root


# -- metrics ----------------------------------------------------------------------------------------


def prf(gold: Iterable[bool], predicted: Iterable[bool]) -> dict[str, Any]:
    tp = fp = fn = tn = 0
    for g, p in zip(gold, predicted, strict=True):
        tp += g and p
        fp += p and not g
        fn += g and not p
        tn += not g and not p
    return {
        "support": tp + fn,
        "predicted": tp + fp,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
    }


def rate(hits: int, total: int) -> dict[str, Any]:
    return {"count": hits, "of": total, "rate": hits / total if total else None}


def _f(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


# -- statements -------------------------------------------------------------------------------------


def judge_statements(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from memvault.core.importers.conversation import Conversation, Turn  # noqa: PLC0415
    from memvault.core.importers.extract import candidates  # noqa: PLC0415
    from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
    from memvault.core.writer import sensitivity  # noqa: PLC0415
    from memvault.core.writer.gate import rejection  # noqa: PLC0415

    out = []
    for row in rows:
        text = row["text"]
        reason = rejection(text)
        draft = Draft.parse({"statement": text})
        turn = Turn(role="user", text=text, time=None, ref="m1")
        conversation = Conversation(key="eval", title="", started_at=None, turns=(turn,), place="eval")
        extracted = candidates(conversation)
        out.append(
            {
                "reason": reason,
                "secret": bool(reason and reason.startswith(SECRET_REASON)),
                "chatter": bool(reason and reason.startswith(CHATTER_REASONS)),
                "writer_sensitivity": sensitivity.of(text, draft.sensitivity).value,
                "writer_type": draft.type.value,
                "import_type": extracted[0].type.value if extracted else None,
            }
        )
    return out


def statement_figures(rows: list[dict[str, Any]], judged: list[dict[str, Any]]) -> dict[str, Any]:
    lab = [r["labels"] for r in rows]
    figures: dict[str, Any] = {"statements": len(rows)}

    figures["secret"] = prf((x["secret"] for x in lab), (j["secret"] for j in judged))
    figures["secret_by_lang"] = _by(
        rows, judged, lambda r: r["lang"], lambda r, j: (r["labels"]["secret"], j["secret"])
    )
    kinds = sorted({r["labels"]["secret_kind"] for r in rows if r["labels"].get("secret_kind")})
    figures["secret_recall_by_kind"] = {
        kind: rate(
            sum(j["secret"] for r, j in zip(rows, judged, strict=True) if r["labels"].get("secret_kind") == kind),
            sum(r["labels"].get("secret_kind") == kind for r in rows),
        )
        for kind in kinds
    }

    figures["mood"] = prf((x["mood"] for x in lab), (j["chatter"] for j in judged))
    figures["mood_by_lang"] = _by(rows, judged, lambda r: r["lang"], lambda r, j: (r["labels"]["mood"], j["chatter"]))

    ordinary = [(r, j) for r, j in zip(rows, judged, strict=True) if r["labels"]["ordinary"]]
    figures["false_refusals"] = {
        "ordinary": rate(sum(j["reason"] is not None for _, j in ordinary), len(ordinary)),
        "as_secret": rate(sum(j["secret"] for _, j in ordinary), len(ordinary)),
        "as_chatter": rate(sum(j["chatter"] for _, j in ordinary), len(ordinary)),
        "by_hard_negative": {
            kind: rate(
                sum(j["reason"] is not None for r, j in ordinary if (r["labels"]["hard_negative"] or "plain") == kind),
                sum((r["labels"]["hard_negative"] or "plain") == kind for r, _ in ordinary),
            )
            for kind in ("plain", "secret", "sensitive", "mood")
        },
        "by_lang": {
            lang: rate(
                sum(j["reason"] is not None for r, j in ordinary if r["lang"] == lang),
                sum(r["lang"] == lang for r, _ in ordinary),
            )
            for lang in ("en", "de", "fr", "es")
        },
    }
    sensitive_only = [
        (r, j) for r, j in zip(rows, judged, strict=True) if r["labels"]["sensitive"] and not r["labels"]["secret"]
    ]
    figures["false_refusals"]["sensitive_statements"] = rate(
        sum(j["reason"] is not None for _, j in sensitive_only), len(sensitive_only)
    )

    # Sensitivity matters for what is stored: statements without a secret.
    storable = [(r, j) for r, j in zip(rows, judged, strict=True) if not r["labels"]["secret"]]
    gold = [r["labels"]["sensitive"] is not None for r, _ in storable]
    figures["sensitive"] = {
        "writer": prf(gold, (j["writer_sensitivity"] == "sensitive" for _, j in storable)),
        "writer_not_normal": prf(gold, (j["writer_sensitivity"] != "normal" for _, j in storable)),
        "writer_recall_by_category": {
            cat: rate(
                sum(j["writer_sensitivity"] == "sensitive" for r, j in storable if r["labels"]["sensitive"] == cat),
                sum(r["labels"]["sensitive"] == cat for r, _ in storable),
            )
            for cat in sorted({r["labels"]["sensitive"] for r, _ in storable if r["labels"]["sensitive"]})
        },
        "sensitive_on_ordinary": rate(
            sum(j["writer_sensitivity"] == "sensitive" for r, j in storable if r["labels"]["ordinary"]),
            sum(r["labels"]["ordinary"] for r, _ in storable),
        ),
    }

    typed = [(r, j) for r, j in storable if r["labels"]["type"]]
    per_type: dict[str, dict[str, Any]] = {}
    for kind in sorted({r["labels"]["type"] for r, _ in typed}):
        per_type[kind] = {
            "support": sum(r["labels"]["type"] == kind for r, _ in typed),
            "import_extracted": sum(r["labels"]["type"] == kind and j["import_type"] is not None for r, j in typed),
            "import_correct": sum(r["labels"]["type"] == kind == j["import_type"] for r, j in typed),
            "import_predicted": sum(j["import_type"] == kind for _, j in typed),
        }
    extracted = [(r, j) for r, j in typed if j["import_type"] is not None]
    figures["type"] = {
        "statements": len(typed),
        "writer_default_accuracy": rate(sum(r["labels"]["type"] == j["writer_type"] for r, j in typed), len(typed)),
        "import_accuracy": rate(sum(r["labels"]["type"] == j["import_type"] for r, j in typed), len(typed)),
        "import_extracted": rate(len(extracted), len(typed)),
        "import_accuracy_when_extracted": rate(
            sum(r["labels"]["type"] == j["import_type"] for r, j in extracted), len(extracted)
        ),
        "import_accuracy_english": rate(
            sum(r["labels"]["type"] == j["import_type"] for r, j in typed if r["lang"] == "en"),
            sum(r["lang"] == "en" for r, _ in typed),
        ),
        "per_type": per_type,
    }
    return figures


def _by(
    rows: list[dict[str, Any]],
    judged: list[dict[str, Any]],
    key: Callable[[dict[str, Any]], str],
    pair: Callable[[dict[str, Any], dict[str, Any]], tuple[bool, bool]],
) -> dict[str, Any]:
    groups: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for r, j in zip(rows, judged, strict=True):
        groups[key(r)].append(pair(r, j))
    return {k: prf((g for g, _ in v), (p for _, p in v)) for k, v in sorted(groups.items())}


def misses(rows: list[dict[str, Any]], judged: list[dict[str, Any]], n: int) -> dict[str, list[str]]:
    """A few wrong judgements per kind of error, for reading."""
    out: dict[str, list[str]] = defaultdict(list)
    for r, j in zip(rows, judged, strict=True):
        lab = r["labels"]
        if lab["secret"] and not j["secret"]:
            out["secret stored"].append(r["text"])
        if lab["mood"] and not j["chatter"]:
            out["mood stored"].append(r["text"])
        if lab["ordinary"] and j["reason"]:
            out["ordinary refused"].append(f"{r['text']}  [{j['reason'][:60]}]")
        if lab["sensitive"] and not lab["secret"] and j["writer_sensitivity"] != "sensitive":
            out["sensitive not judged so"].append(f"{lab['sensitive']}: {r['text']}")
        if not lab["secret"] and not lab["sensitive"] and j["writer_sensitivity"] == "sensitive":
            out["judged sensitive, is not"].append(r["text"])
    rng = __import__("random").Random(7)
    return {k: rng.sample(v, min(n, len(v))) for k, v in out.items()}


# -- pairs ------------------------------------------------------------------------------------------


def judge_pairs(rows: list[dict[str, Any]], root: Path) -> list[dict[str, Any]]:
    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
    from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER  # noqa: PLC0415
    from memvault.core.vocabulary.requests import ProposeRequest  # noqa: PLC0415

    template = root / "template-store"
    Vault.open(template, create=True, scrypt_n=2**12).close()
    out = []
    for i, row in enumerate(rows):
        home = root / f"pair-{i}"
        shutil.copytree(template, home)
        try:
            with Vault.open(home) as vault:
                setup = vault.add(OWNER, Draft.of(statement=row["existing"], domain="eval"))
                if setup["outcome"] != "added":
                    out.append({"predicted": "SETUP_REFUSED", "classification": None, "add": None, "evidence": None})
                    continue
                request = ProposeRequest.of(candidates=[{"statement": row["text"], "domain": "eval"}])
                result = vault.propose(LOCAL_ASSISTANT, request)["results"][0]
                added = vault.add(LOCAL_ASSISTANT, Draft.of(statement=row["text"], domain="eval"))
        finally:
            shutil.rmtree(home, ignore_errors=True)
        classification = result["classification"]
        predicted = "REJECTED" if classification is None else _BY_CLASSIFICATION[classification]
        out.append(
            {
                "predicted": predicted,
                "classification": classification,
                "outcome": result["outcome"],
                "add": added["outcome"],
                "evidence": result["evidence"],
            }
        )
    return out


def pair_figures(rows: list[dict[str, Any]], judged: list[dict[str, Any]]) -> dict[str, Any]:
    gold = [r["labels"]["change"] for r in rows]
    got = [j["predicted"] for j in judged]
    per_label = {lab: prf((g == lab for g in gold), (p == lab for p in got)) for lab in PAIR_LABELS}
    confusion = {lab: dict(Counter(p for g, p in zip(gold, got, strict=True) if g == lab)) for lab in PAIR_LABELS}
    not_dup = [(g, j) for g, j in zip(gold, judged, strict=True) if g != "DUPLICATE"]
    dup = [j for g, j in zip(gold, judged, strict=True) if g == "DUPLICATE"]
    by_lang = {}
    for lang in ("en", "de", "fr", "es"):
        idx = [i for i, r in enumerate(rows) if r["lang"] == lang]
        by_lang[lang] = rate(sum(gold[i] == got[i] for i in idx), len(idx))
    return {
        "pairs": len(rows),
        "accuracy": rate(sum(g == p for g, p in zip(gold, got, strict=True)), len(rows)),
        "per_label": per_label,
        "confusion": confusion,
        "accuracy_by_lang": by_lang,
        "lost_as_false_duplicates": {
            "memory_propose_no_change": rate(sum(j["predicted"] == "DUPLICATE" for _, j in not_dup), len(not_dup)),
            "memory_add_duplicate": rate(sum(j["add"] == "duplicate" for _, j in not_dup), len(not_dup)),
            "memory_add_duplicate_by_label": {
                lab: rate(
                    sum(j["add"] == "duplicate" for g, j in not_dup if g == lab), sum(g == lab for g, _ in not_dup)
                )
                for lab in ("SUPERSEDE", "ADD")
            },
        },
        "duplicates_caught": {
            "memory_propose_no_change": rate(sum(j["predicted"] == "DUPLICATE" for j in dup), len(dup)),
            "memory_add_duplicate": rate(sum(j["add"] == "duplicate" for j in dup), len(dup)),
        },
        "rejected_by_gate": rate(sum(p == "REJECTED" for p in got), len(rows)),
        "setup_refused": sum(p == "SETUP_REFUSED" for p in got),
    }


def pair_misses(rows: list[dict[str, Any]], judged: list[dict[str, Any]], n: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for r, j in zip(rows, judged, strict=True):
        if r["labels"]["change"] != j["predicted"]:
            ev = j.get("evidence") or {}
            out[f"{r['labels']['change']} judged {j['predicted']}"].append(
                f"{r['existing']!r} -> {r['text']!r} (rule {ev.get('rule')}, cos {ev.get('cosine')})"
            )
    rng = __import__("random").Random(7)
    return {k: rng.sample(v, min(n, len(v))) for k, v in sorted(out.items())}


# -- report -----------------------------------------------------------------------------------------


def report(split: str, st: dict[str, Any], pf: dict[str, Any]) -> str:
    lines = [f"\n=== {split}: {st['statements']} statements, {pf['pairs']} pairs ===", ""]
    lines.append("| judgement | what judges it today | support | predicted | precision | recall |")
    lines.append("|---|---|---|---|---|---|")

    def row(name: str, judge: str, m: dict[str, Any]) -> None:
        lines.append(
            f"| {name} | {judge} | {m['support']} | {m['predicted']} | {_f(m['precision'])} | {_f(m['recall'])} |"
        )

    row("secret", "gate: secret finding", st["secret"])
    row("mood", "gate: chatter rule + mood head", st["mood"])
    s = st["sensitive"]
    row("sensitive", "the writer's judgement (every write path)", s["writer"])
    row("sensitive", "the writer: personal or sensitive", s["writer_not_normal"])
    for lab, m in pf["per_label"].items():
        row(f"pair {lab}", "memory_propose", m)
    fr = st["false_refusals"]
    t = st["type"]
    lines += [
        "",
        f"false refusals (ordinary statements refused by the gate): {_rate(fr['ordinary'])}"
        f"  [as secret {_rate(fr['as_secret'])}, as chatter {_rate(fr['as_chatter'])}]",
        "  by what they look like: " + ", ".join(f"{k} {_rate(v)}" for k, v in fr["by_hard_negative"].items()),
        "  by language: " + ", ".join(f"{k} {_rate(v)}" for k, v in fr["by_lang"].items()),
        f"sensitive statements refused by the gate: {_rate(fr['sensitive_statements'])}",
        "secret recall by language: " + ", ".join(f"{k} {_f(v['recall'])}" for k, v in st["secret_by_lang"].items()),
        "secret recall by kind: " + ", ".join(f"{k} {_rate(v)}" for k, v in st["secret_recall_by_kind"].items()),
        "mood recall by language: " + ", ".join(f"{k} {_f(v['recall'])}" for k, v in st["mood_by_lang"].items()),
        "sensitive recall by category: "
        + ", ".join(f"{k} {_rate(v)}" for k, v in s["writer_recall_by_category"].items()),
        f"ordinary statements judged sensitive (staged in automatic mode): {_rate(s['sensitive_on_ordinary'])}",
        f"type ({t['statements']} storable statements):"
        f" memory_add default FACT right {_rate(t['writer_default_accuracy'])};"
        f" importer cues right {_rate(t['import_accuracy'])} (English {_rate(t['import_accuracy_english'])}),"
        f" extracted {_rate(t['import_extracted'])}, right when extracted {_rate(t['import_accuracy_when_extracted'])}",
        "  per type (support / importer extracted / importer right / importer predicted): "
        + ", ".join(
            f"{k} {v['support']}/{v['import_extracted']}/{v['import_correct']}/{v['import_predicted']}"
            for k, v in t["per_type"].items()
        ),
        "",
        f"pairs: accuracy {_rate(pf['accuracy'])}; by language "
        + ", ".join(f"{k} {_rate(v)}" for k, v in pf["accuracy_by_lang"].items()),
        "  confusion (gold -> judged): "
        + "; ".join(f"{g}: " + ", ".join(f"{p} {n}" for p, n in sorted(c.items())) for g, c in pf["confusion"].items()),
        "  acknowledged writes lost as false duplicates (pairs that are not duplicates):"
        f" memory_propose NO_CHANGE {_rate(pf['lost_as_false_duplicates']['memory_propose_no_change'])},"
        f" memory_add 'duplicate' {_rate(pf['lost_as_false_duplicates']['memory_add_duplicate'])}",
        "  duplicates caught: memory_propose NO_CHANGE "
        f"{_rate(pf['duplicates_caught']['memory_propose_no_change'])}, memory_add 'duplicate' "
        f"{_rate(pf['duplicates_caught']['memory_add_duplicate'])}",
        f"  new statements refused by the gate: {_rate(pf['rejected_by_gate'])}",
    ]
    return "\n".join(lines)


def _rate(r: dict[str, Any]) -> str:
    return f"{r['count']}/{r['of']} ({_f(r['rate'])})"


def code_state() -> dict[str, Any]:
    """The commit measured, and the judging files that differ from it in the working tree (others
    edit this checkout too: figures belong to the code as it was when they were taken)."""
    import subprocess  # noqa: PLC0415

    root = HERE.parents[1]
    paths = [
        "core/writer", "core/importers/extract.py", "core/importers/conversation.py",
        "core/vocabulary", "core/retrieval", "core/store",
    ]  # fmt: skip
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", *paths], cwd=root, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return {"head": None, "modified": None}
    return {"head": head.stdout.strip(), "modified": [line[3:] for line in status.stdout.splitlines()]}


# The hand-written sets: `fresh` is measured only (nobody tunes on it); `fresh2` and `fresh3` have a
# tuning part the heads train on and a held-out part.
SECOND_SETS = {
    "fresh": ("fresh", "fresh"),
    "fresh2": ("fresh2", "heldout"),
    "fresh2-tune": ("fresh2", "tune"),
    "fresh3": ("fresh3", "heldout"),
    "fresh3-tune": ("fresh3", "tune"),
}


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--split", choices=("heldout", "tune", "both", *SECOND_SETS), default="both")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--show", type=int, default=0, help="print up to N misjudged statements per error kind")
    parser.add_argument("--embeddings", choices=("on", "off"), default="on", help="the product default is on")
    parser.add_argument("--no-pairs", action="store_true", help="statements only")
    args = parser.parse_args()

    root = sandbox(args.embeddings == "on")
    try:
        statements_file, pairs_file = HERE / "statements.jsonl", HERE / "pairs.jsonl"
        if args.split in SECOND_SETS:  # the hand-written sets (README: "The fresh sets")
            prefix, split = SECOND_SETS[args.split]
            statements_file, pairs_file = HERE / f"{prefix}_statements.jsonl", HERE / f"{prefix}_pairs.jsonl"
        elif not statements_file.exists() or not pairs_file.exists():
            from build import build  # noqa: PLC0415

            build()
        statements, pairs = load(statements_file), load(pairs_file)
        if args.split in SECOND_SETS:
            splits: tuple[str, ...] = (split,)
        else:
            splits = ("heldout", "tune") if args.split == "both" else (args.split,)
        figures: dict[str, Any] = {"embeddings": args.embeddings, "code": code_state()}
        print(f"code: {figures['code']['head']}; judging files modified in the working tree: "
              f"{', '.join(figures['code']['modified'] or []) or 'none'}")  # fmt: skip
        for split in splits:
            started = time.monotonic()
            rows = [r for r in statements if r["split"] == split]
            judged = judge_statements(rows)
            st = statement_figures(rows, judged)
            prs = [] if args.no_pairs else [p for p in pairs if p["split"] == split]
            pjudged = judge_pairs(prs, root) if prs else []
            pf = pair_figures(prs, pjudged)
            figures[split] = {"statements": st, "pairs": pf, "seconds": round(time.monotonic() - started, 1)}
            print(report(split, st, pf))
            print(f"({figures[split]['seconds']} s)")
            if args.show:
                for kind, texts in {**misses(rows, judged, args.show), **pair_misses(prs, pjudged, args.show)}.items():
                    print(f"\n-- {kind}:")
                    for text in texts:
                        print(f"   {text}")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
