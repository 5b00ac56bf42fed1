"""The packet: token budget counted with the tokenizer, per-domain shares, labels, the kept constraint."""

from __future__ import annotations

from memvault.core.retrieval.embeddings import token_counter
from memvault.core.retrieval.packet import compile_packet, default_counter, line_for
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Explicitness, Memory, MemoryId, MemoryType, Scope, Sensitivity, Status
from memvault.core.vocabulary.search_request import SearchRequest


def _memory(n: int, *, domain: str = "food", type_: MemoryType = MemoryType.FACT, **fields: object) -> Memory:
    base: dict[str, object] = {
        "id": MemoryId(f"m{n:03d}"),
        "domain": domain,
        "type": type_,
        "statement": f"Statement number {n} about something in {domain}",
        "status": Status.CURRENT,
        "confidence": 0.8,
        "importance": 0.5,
        "explicitness": Explicitness.EXPLICIT,
        "sensitivity": Sensitivity.NORMAL,
        "access_scope": Scope.LOCAL_ONLY,
        "learned_at": f"2026-01-{n % 28 + 1:02d}T00:00:00Z",
        "valid_from": f"2026-01-{n % 28 + 1:02d}T00:00:00Z",
    }
    base.update(fields)
    return Memory(**base)  # type: ignore[arg-type]


def test_tokens_are_counted_with_the_models_tokenizer() -> None:
    count = token_counter()
    assert count("green tea") == 2
    assert count("unbelievably") > 1  # word pieces, not words
    assert default_counter() is count
    records = [_memory(n) for n in range(3)]
    packet = compile_packet(records, 10, 1000, count=count)
    assert packet.tokens == sum(count(line_for(r)) for r in records)


def test_counts_from_kept_pieces_are_the_tokenizers_own() -> None:
    count = token_counter()
    lines = [
        line_for(_memory(1, source="chat", source_reference="D1:3")),
        "[m_01] work/fact: Lena's e-mail (re: Q3) said 1,000.50 EUR -- don't __init__ ~`{x}`!",
        "unbelievably unbelievable UNBELIEVABLY",  # the second and third reuse the first's pieces
        "a [CLS] b [SEP] [MASK]x [cls]",  # special tokens are matched before the text is lowered
        "x" * 101 + " " + "y" * 100,  # a word over 100 characters is one unknown token
        "Café Zürich 東京 naïve",  # not ASCII: encoded whole
        "tab\tnew\nline\x07bell",  # control characters: encoded whole
        "",
    ]
    whole = count._tokenizer  # the tokenizer itself, encoding each text whole
    for line in lines * 2:  # the second time from kept pieces
        assert count(line) == len(whole.encode(line, add_special_tokens=False).ids), line


def test_every_line_cites_its_id_and_budgets_hold() -> None:
    records = [_memory(n) for n in range(20)]
    count = token_counter()
    packet = compile_packet(records, 5, 10_000, count=count)
    assert len(packet.records) == 5 and not packet.truncated  # the record limit is not a truncation
    assert all(line.startswith(f"[{r.id}]") for line, r in zip(packet.text.splitlines(), packet.records, strict=True))
    tight = compile_packet(records, 20, 50, count=count)
    assert tight.tokens <= 50 and tight.truncated and tight.records


def test_one_domain_cannot_crowd_out_the_others() -> None:
    ranked = [_memory(n, domain="work") for n in range(8)] + [_memory(100 + n, domain="home") for n in range(2)]
    count = token_counter()
    budget = sum(count(line_for(r)) for r in ranked[:6])
    capped = compile_packet(ranked, 20, budget, count=count, domain_share=0.6)
    assert {"work", "home"} <= {r.domain for r in capped.records}
    assert capped.tokens_by_domain["work"] <= 0.6 * budget + count(line_for(ranked[0]))
    uncapped = compile_packet(ranked, 20, budget, count=count, domain_share=1.0)
    assert {r.domain for r in uncapped.records} == {"work"}
    alone = compile_packet(ranked[:8], 20, budget, count=count, domain_share=0.6)
    assert len(alone.records) == 6  # a lone domain may use the whole budget (the second pass fills it)


def test_a_tight_budget_keeps_relevance_first_and_no_unrelated_constraint() -> None:
    ranked = [_memory(n) for n in range(10, 16)]
    unrelated = _memory(1, type_=MemoryType.CONSTRAINT, valid_from="2026-02-01T00:00:00Z")
    ranked.append(unrelated)
    scores = {r.id: 1.0 - 0.05 * i for i, r in enumerate(ranked[:-1])} | {unrelated.id: 0.2}
    count = token_counter()
    for budget in (40, 60, 100):
        packet = compile_packet(ranked, 8, budget, count=count, scores=scores)
        assert unrelated not in packet.records  # it does not bear on the request
        n = len(packet.records)
        assert n >= 1 and packet.records == ranked[:n]  # the best lines, in order, none replaced by weaker ones


def test_a_constraint_that_bears_on_the_request_is_kept_in_its_place() -> None:
    old = _memory(1, type_=MemoryType.CONSTRAINT, valid_from="2025-01-01T00:00:00Z")
    new = _memory(2, type_=MemoryType.CONSTRAINT, valid_from="2026-02-01T00:00:00Z")
    inferred = _memory(3, type_=MemoryType.CONSTRAINT, valid_from="2026-02-20T00:00:00Z",
                       explicitness=Explicitness.INFERRED)  # fmt: skip
    ranked = [_memory(n) for n in range(10, 20)] + [old, inferred, new]
    scores = {r.id: 0.9 for r in ranked} | {ranked[0].id: 1.0}
    packet = compile_packet(ranked, 3, 1000, count=token_counter(), scores=scores)
    assert len(packet.records) == 3 and new in packet.records and old not in packet.records
    assert packet.records[:2] == ranked[:2]  # it took the least relevant line's place
    assert packet.text.splitlines()[-1].startswith(f"[{new.id}]")  # kept, but in its ranked place


def test_each_line_cites_its_source() -> None:
    cited = _memory(1, source="claude", source_reference="chat 2026-01-04")
    assert "source: claude chat 2026-01-04" in line_for(cited)
    assert "source" not in line_for(_memory(2))


def test_the_kitchen_budget_comes_first_in_a_tight_packet(vault: Vault) -> None:
    kitchen = vault.add(OWNER, Draft.of(statement="The kitchen renovation budget is capped at 12000 euros",
                                        domain="home", type="CONSTRAINT"))["id"]  # fmt: skip
    for n, text in enumerate(["Never schedule meetings before 9am", "No flights with more than one stopover"]):
        vault.add(OWNER, Draft.of(statement=text, domain=f"rules{n}", type="CONSTRAINT"))
    for budget in (40, 60, 100):
        results = vault.search(OWNER, SearchRequest.of(query="kitchen budget", max_tokens=budget))["results"]
        assert results and results[0]["id"] == kitchen
        assert all("kitchen" in r["statement"].lower() for r in results)


def test_labels_say_how_far_to_trust_a_line() -> None:
    superseded = _memory(1, status=Status.SUPERSEDED, valid_until="2026-02-01T00:00:00Z",
                         superseded_by_id=MemoryId("m002"))  # fmt: skip
    assert "(superseded on 2026-02-01 by [m002])" in line_for(superseded)
    disputed = _memory(3, status=Status.DISPUTED)
    line = line_for(disputed, ["m004"])
    assert "disputed" in line and "conflicts with [m004]" in line
    assert "uncertain" in line_for(_memory(5, confidence=0.3))
    assert "inferred" in line_for(_memory(6, explicitness=Explicitness.INFERRED))
    assert "due 2026-04-01" in line_for(_memory(7, due_at="2026-04-01T00:00:00Z"))


def test_each_domain_keeps_to_its_own_token_share_first() -> None:
    ranked = [_memory(n, domain="work") for n in range(8)] + [_memory(100 + n, domain="home") for n in range(4)]
    count = token_counter()
    budget = sum(count(line_for(r)) for r in ranked[:6])
    line = count(line_for(ranked[0]))
    home_first = compile_packet(ranked, 20, budget, count=count, domain_share=0.6, shares={"work": 0.2, "home": 0.6})
    work_first = compile_packet(ranked, 20, budget, count=count, domain_share=0.6, shares={"work": 0.6, "home": 0.2})
    assert home_first.tokens_by_domain["home"] > work_first.tokens_by_domain["home"]
    assert home_first.tokens_by_domain["work"] < work_first.tokens_by_domain["work"]
    wide = compile_packet(ranked, 20, budget, count=count, domain_share=0.6, shares={"work": 0.9})
    assert wide.tokens_by_domain["work"] <= 0.6 * budget + line  # never above domain_max_share


def test_a_tight_budget_keeps_the_most_relevant_lines_cut_to_fit_and_never_pads_with_weak_ones() -> None:
    """Long lines at the top, a short weak one of another domain below: the top lines are cut to fit
    rather than passed over, and a domain's share never lets the weak line in before a better one."""
    long_text = "The kitchen renovation brings new cabinets, a moved sink under the window, an induction hob " * 2
    ranked = [_memory(n, domain="home", statement=f"{long_text}({n})") for n in range(1, 9)]
    weak = _memory(50, domain="cooking", statement="Salt the pasta water.")
    ranked.append(weak)
    scores = {r.id: 1.0 - 0.1 * i for i, r in enumerate(ranked[:-1])} | {weak.id: 0.016}
    count = token_counter()
    whole = count(line_for(ranked[0]))
    for budget in (whole - 10, whole + 30, 3 * whole):
        packet = compile_packet(ranked, 8, budget, count=count, domain_share=0.6, shares={"home": 0.25}, scores=scores)
        assert packet.records[0] == ranked[0] and weak not in packet.records
        assert packet.records == ranked[: len(packet.records)] and packet.tokens <= budget
    cut = compile_packet(ranked, 8, whole - 10, count=count, scores=scores)
    assert cut.text.startswith(f"[{ranked[0].id}]") and "…" in cut.text  # the best line, shortened
