"""Measure the importer's extraction on the import evaluation set (conversations.jsonl).

Run from the checkout: `.venv/bin/python tests/import_eval/measure.py [--split heldout|tune|both]
[--embeddings on|off] [--show N] [--json FILE]`.

For each part and each instance number, in a fresh encrypted store in a private temp home: the
earlier facts that the part's changes replace are stored first (as the person's own records, dated
2024), the part's conversations are written as real exports (a ChatGPT zip or folder, a Claude folder
or zip, a Codex sessions folder), and each export gets an import dry run exactly as `memvault import`
runs it: format detection, extraction, the writer's gate, the comparison with the store. Then:

- a candidate is *kept* when the dry run would commit it (an addition, a correction, or a repeat of
  one); *weak* ones are committed only with --include-weak, and are counted apart;
- a kept candidate *matches* an expected memory of its conversation when every key of it is in the
  statement (case and accents folded);
- recall: expected memories matched by a kept candidate; precision: kept candidates that match one;
- type accuracy: of the matched memories, those whose first matching candidate has the expected type
  (or one of its `also` types);
- changes: of the expected changes, those made a correction of the stored earlier fact;
- secrets kept: kept statements holding a secret value of the conversation (must be 0).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import build_set as build  # noqa: E402

SAID_AGAIN = "said again earlier in this import"


def sandbox(embeddings: bool) -> Path:
    """A private temp home: no real store, settings or keyring is touched."""
    root = Path(tempfile.mkdtemp(prefix="memvault-import-eval-"))
    for folder in ("config", "data", "runtime", "home", "cache"):
        (root / folder).mkdir(mode=0o700)
    os.environ.update(
        {
            "MEMVAULT_HOME": str(root / "home" / "default"),
            "XDG_CONFIG_HOME": str(root / "config"),
            "XDG_DATA_HOME": str(root / "data"),
            "XDG_CACHE_HOME": str(root / "cache"),
            "XDG_RUNTIME_DIR": str(root / "runtime"),
            "MEMVAULT_PASSPHRASE": "import evaluation (fictional passphrase)",
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
            "MEMVAULT_EMBEDDINGS": "local" if embeddings else "off",
        }
    )
    os.environ.pop("MEMVAULT_WRITE_MODE", None)
    return root


def _kind(list_name: str, entry: dict[str, Any]) -> str:
    if list_name != "exclusions":
        return "kept"
    reason = str(entry["reason"])
    if reason.startswith(SAID_AGAIN):
        return "kept"
    if reason.startswith("weak candidate"):
        return "weak"
    if reason.startswith("refused"):
        return "refused"
    return "excluded"


def run_part(root: Path, part: str, conversations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every candidate the dry runs of this part found: (conversation id, kind, statement, type, correction)."""
    from memvault.core.importers.request import ImportRequest  # noqa: PLC0415
    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
    from memvault.core.vocabulary.model import OWNER  # noqa: PLC0415

    found: list[dict[str, Any]] = []
    by_uuid = {c["uuid"]: c for c in conversations}
    for instance in sorted({c["instance"] for c in conversations}):
        chosen = [c for c in conversations if c["instance"] == instance]
        folder = root / f"{part}-{instance}"
        with Vault.open(folder / "store", create=True, scrypt_n=2**12) as vault:
            priors: dict[tuple[str, int], str] = {}
            for conversation in chosen:
                for index, expected in enumerate(conversation["expect"]):
                    if expected["prior"]:
                        draft = Draft.of(statement=expected["prior"], valid_from="2024-06-01", event_time="2024-06-01")
                        priors[(conversation["id"], index)] = str(vault.add(OWNER, draft)["id"])
            for export in build.write_exports(chosen, folder / "exports", instance):
                report = vault.imports.run(OWNER, ImportRequest(path=str(export)))
                for list_name in ("additions", "corrections", "exclusions"):
                    for entry in report[list_name]:
                        key = str(entry["pointer"]).split(":", 1)[1].rsplit("#", 1)[0]
                        conversation = by_uuid[key]
                        found.append(
                            {
                                "conversation": conversation["id"],
                                "format": report["format"],
                                "kind": _kind(list_name, entry),
                                "statement": entry["statement"],
                                "type": entry["type"],
                                "corrects": entry["target_id"] if list_name == "corrections" else None,
                                "reason": entry["reason"],
                            }
                        )
            for conversation in chosen:
                for index, expected in enumerate(conversation["expect"]):
                    expected["prior_id"] = priors.get((conversation["id"], index))
    return found


def _matches(candidate: dict[str, Any], expected: dict[str, Any]) -> bool:
    said = build.fold(candidate["statement"] or "")
    return all(key in said for key in expected["keys"])


def score(conversations: list[dict[str, Any]], found: list[dict[str, Any]]) -> dict[str, Any]:
    by_conversation: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for candidate in found:
        by_conversation[candidate["conversation"]].append(candidate)
    expected_n = matched = matched_weak = typed = changes = corrected = 0
    kept = kept_matched = secrets = 0
    per_lang: dict[str, Counter[str]] = defaultdict(Counter)
    per_type: dict[str, Counter[str]] = defaultdict(Counter)
    misses: list[dict[str, Any]] = []
    false: list[dict[str, Any]] = []
    wrong_type: list[dict[str, Any]] = []
    for conversation in conversations:
        mine = by_conversation.get(conversation["id"], [])
        strong = [c for c in mine if c["kind"] == "kept"]
        weak = [c for c in mine if c["kind"] == "weak"]
        for candidate in strong:
            kept += 1
            if any(_matches(candidate, e) for e in conversation["expect"]):
                kept_matched += 1
            else:
                false.append({"conversation": conversation["id"], **candidate})
            said = candidate["statement"] or ""
            secrets += any(s in said for s in conversation["secrets"])
        for expected in conversation["expect"]:
            expected_n += 1
            per_lang[conversation["lang"]]["expected"] += 1
            per_type[expected["type"]]["expected"] += 1
            hit = next((c for c in strong if _matches(c, expected)), None)
            changes += expected["change"]
            if hit is None:
                matched_weak += any(_matches(c, expected) for c in weak)
                misses.append({"conversation": conversation["id"], "gist": expected["gist"], "type": expected["type"]})
                continue
            matched += 1
            per_lang[conversation["lang"]]["found"] += 1
            per_type[expected["type"]]["found"] += 1
            if hit["type"] in (expected["type"], *expected["also"]):
                typed += 1
            else:
                wrong_type.append({"conversation": conversation["id"], "expected": expected["type"], **hit})
            if expected["change"] and expected.get("prior_id") and hit["corrects"] == expected["prior_id"]:
                corrected += 1
    return {
        "conversations": len(conversations),
        "expected": expected_n,
        "recall": _rate(matched, expected_n),
        "recall_with_weak": _rate(matched + matched_weak, expected_n),
        "kept": kept,
        "precision": _rate(kept_matched, kept),
        "type_accuracy": _rate(typed, matched),
        "changes": changes,
        "changes_corrected": _rate(corrected, changes),
        "secrets_kept": secrets,
        "weak": sum(c["kind"] == "weak" for c in found),
        "refused_by_gate": sum(c["kind"] == "refused" for c in found),
        "per_language": {k: _rate(v["found"], v["expected"]) for k, v in sorted(per_lang.items())},
        "per_type": {k: _rate(v["found"], v["expected"]) for k, v in sorted(per_type.items())},
        "misses": misses,
        "false_positives": false,
        "wrong_types": wrong_type,
    }


def _rate(numerator: int, denominator: int) -> dict[str, Any]:
    return {"n": numerator, "of": denominator, "rate": round(numerator / denominator, 3) if denominator else None}


def _text(rate: dict[str, Any]) -> str:
    return "-" if rate["rate"] is None else f"{rate['rate']:.3f} ({rate['n']}/{rate['of']})"


def show(part: str, figures: dict[str, Any], examples: int) -> None:
    print(f"\n== {part}: {figures['conversations']} conversations, {figures['expected']} expected memories")
    print(f"  extraction recall     {_text(figures['recall'])}   (with weak: {_text(figures['recall_with_weak'])})")
    print(f"  extraction precision  {_text(figures['precision'])}")
    print(f"  type accuracy         {_text(figures['type_accuracy'])}")
    print(f"  changes -> correction {_text(figures['changes_corrected'])}")
    print(f"  secrets kept {figures['secrets_kept']}, weak {figures['weak']}, refused by the gate "
          f"{figures['refused_by_gate']}")  # fmt: skip
    print("  recall per language: " + ", ".join(f"{k} {_text(v)}" for k, v in figures["per_language"].items()))
    print("  recall per type: " + ", ".join(f"{k} {_text(v)}" for k, v in figures["per_type"].items()))
    if examples:
        for title, rows in (("missed", figures["misses"]), ("false positives", figures["false_positives"]),
                            ("wrong types", figures["wrong_types"])):  # fmt: skip
            print(f"  {title}:")
            for row in rows[:examples]:
                print("    " + json.dumps(row, ensure_ascii=False))


def writer_set(part: str) -> dict[str, Any]:
    """An independent check: the writer evaluation's labelled statements (tests/writer_eval/, written by
    others before these rules), each as the person's one turn: how many storable statements are
    extracted, and how many of those get the labelled type (exactly: no `also` there)."""
    from memvault.core.importers.conversation import Conversation, Turn  # noqa: PLC0415
    from memvault.core.importers.extract import candidates  # noqa: PLC0415

    path = ROOT / "tests" / "writer_eval" / "statements.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["split"] == part]
    typed = extracted = right = moods = moods_extracted = 0
    per_lang: dict[str, Counter[str]] = defaultdict(Counter)
    per_type: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        turn = Turn(role="user", text=row["text"], time=None, ref="m1")
        found = candidates(Conversation(key="eval", title="", started_at=None, turns=(turn,), place="eval"))
        kind = next((c.type.value for c in found if not c.weak), None)
        label = row["labels"]
        if label["mood"]:
            moods += 1
            moods_extracted += kind is not None
        if not label["type"] or label["secret"]:
            continue
        typed += 1
        per_lang[row["lang"]]["typed"] += 1
        per_type[label["type"]]["typed"] += 1
        if kind is not None:
            extracted += 1
            per_lang[row["lang"]]["extracted"] += 1
            per_type[label["type"]]["extracted"] += 1
            right += kind == label["type"]
            per_type[label["type"]]["right"] += kind == label["type"]
    return {
        "storable_statements": typed,
        "extracted": _rate(extracted, typed),
        "type_right_when_extracted": _rate(right, extracted),
        "moods_extracted": _rate(moods_extracted, moods),
        "extracted_per_language": {k: _rate(v["extracted"], v["typed"]) for k, v in sorted(per_lang.items())},
        "per_type": {k: f"{v['typed']}/{v['extracted']}/{v['right']}" for k, v in sorted(per_type.items())},
    }


def show_writer_set(part: str, figures: dict[str, Any]) -> None:
    print(f"\n== writer evaluation statements, {part} (one sentence each; labelled by others)")
    print(f"  extracted (not weak)       {_text(figures['extracted'])}")
    print(f"  type right when extracted  {_text(figures['type_right_when_extracted'])}")
    print(f"  moods extracted (the gate refuses them after) {_text(figures['moods_extracted'])}")
    print(
        "  extracted per language: "
        + ", ".join(f"{k} {_text(v)}" for k, v in figures["extracted_per_language"].items())
    )
    print("  per type (labelled/extracted/right): " + ", ".join(f"{k} {v}" for k, v in figures["per_type"].items()))


def _code_state() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    changed = git("status", "--short", "--", "core/importers", "core/writer")
    return f"commit {git('rev-parse', '--short', 'HEAD')}" + (f"; changed in the tree:\n{changed}" if changed else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("heldout", "tune", "both"), default="both")
    parser.add_argument("--embeddings", choices=("on", "off"), default="off")
    parser.add_argument("--show", type=int, default=0, help="examples of each kind of error")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--writer-set", action="store_true", help="also extract from tests/writer_eval's statements")
    args = parser.parse_args()
    root = sandbox(args.embeddings == "on")
    try:
        run(args, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run(args: argparse.Namespace, root: Path) -> None:
    conversations = build.conversations()
    stored = [json.loads(line) for line in build.OUT.read_text(encoding="utf-8").splitlines()]
    if stored != conversations:
        sys.exit("conversations.jsonl is not what build_set.py makes: run build_set.py (and look at why it changed)")
    print(_code_state())
    parts = ("tune", "heldout") if args.split == "both" else (args.split,)
    figures = {}
    for part in parts:
        chosen = [c for c in conversations if c["part"] == part]
        figures[part] = score(chosen, run_part(root, part, chosen))
        show(part, figures[part], args.show)
        if args.writer_set:
            figures[f"writer_set_{part}"] = writer_set(part)
            show_writer_set(part, figures[f"writer_set_{part}"])
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
