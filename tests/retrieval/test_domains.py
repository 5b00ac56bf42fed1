"""Domains on real stores: assignment on write, discovery, and the person's rename/merge/split/pin."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from regions_data import FINANCE, GARDEN, HEALTH, REGIONS, SOFTWARE, fill

from memvault.core.operations import domain_upkeep as upkeep_module
from memvault.core.retrieval.router import route
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, Forbidden, InvalidArgument, NotFound
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller, Surface
from memvault.core.vocabulary.requests import CorrectRequest, ListRequest

REMOTE = Caller(principal="remote-bot", surface=Surface.REMOTE)
TRUTH = {statement: region for region, statements in REGIONS.items() for statement in statements}


def snapshot(vault: Vault) -> dict[str, tuple[str, str, str]]:
    """id -> (statement, status, domain) of every record."""
    rows = vault.ctx.store.raw.execute("SELECT id, statement, status, domain FROM memories").fetchall()
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


def table(vault: Vault, name: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(r) for r in vault.ctx.store.raw.execute(f"SELECT * FROM {name}"))


def actions(vault: Vault, prefix: str = "domain") -> Counter[str]:
    rows = vault.ctx.store.raw.execute("SELECT action FROM events WHERE action LIKE ?", (prefix + "%",)).fetchall()
    return Counter(r[0] for r in rows)


# -- assignment on write ---------------------------------------------------------------------
def test_a_write_without_a_domain_joins_the_best_matching_one(vault: Vault) -> None:
    fill(vault)
    cases = {
        "The greenhouse tomato seedlings need a bigger pot": "garden",
        "The tax return needs the freelance invoices from March": "finance",
        "The physiotherapist wants the knee iced after running": "health",
        "The staging server needs a new container image": "software",
        "Zyx quorbles wibble": "general",
    }
    for statement, expected in cases.items():
        answer = vault.add(OWNER, Draft.of(statement=statement))
        assert vault.get(OWNER, answer["id"])["memory"]["domain"] == expected, statement
        assert vault.events_for(OWNER, answer["id"])[-1]["action"] == "domain_assigned"


def test_an_approved_assistant_write_stays_movable_by_discovery(vault: Vault) -> None:
    fill(vault)
    staged = vault.add(LOCAL_ASSISTANT, Draft.of(statement="The greenhouse tomato seedlings need a bigger pot"))
    named = vault.add(LOCAL_ASSISTANT, Draft.of(statement="The greenhouse roof needs cleaning", domain="finance"))
    chosen = vault.approve(OWNER, staged["proposal_id"])["id"]
    placed = vault.approve(OWNER, named["proposal_id"])["id"]
    assert vault.get(OWNER, chosen)["memory"]["domain"] == "garden"
    assert [e["action"] for e in vault.events_for(OWNER, chosen)][:2] == ["added", "domain_assigned"]
    assert "domain_assigned" not in [e["action"] for e in vault.events_for(OWNER, placed)]


def test_a_remote_write_is_never_placed_by_records_it_cannot_see(vault: Vault) -> None:
    fill(vault)  # every record local_only
    answer = vault.add(REMOTE, Draft.of(statement="The greenhouse tomato seedlings need a bigger pot"))
    assert answer["outcome"] == "staged"
    assert vault.proposals(OWNER)[0]["payload"]["draft"]["domain"] == "general"


def test_a_workspace_callers_shared_write_is_never_placed_by_its_workspace_records(vault: Vault) -> None:
    team = Caller(principal="team-bot", surface=Surface.WORKSPACE, workspace_id="ws-alpha")
    for region, statements in REGIONS.items():  # records only its workspace sees (none shared)
        for statement in statements:
            vault.approve(OWNER, vault.add(team, Draft.of(statement=statement, domain=region))["proposal_id"])
    own = vault.add(team, Draft.of(statement="The greenhouse tomato seedlings need a bigger pot"))
    shared = vault.add(
        team, Draft.of(statement="The greenhouse tomato seedlings need more light", access_scope="remote_allowed")
    )
    domains = {p["id"]: p["payload"]["draft"]["domain"] for p in vault.proposals(OWNER)}
    assert domains[own["proposal_id"]] == "garden"  # its workspace's records place its workspace record
    assert domains[shared["proposal_id"]] == "general"  # a record every remote caller sees: shared view only


# -- discovery -------------------------------------------------------------------------------
def test_discovery_waits_for_enough_records(vault: Vault) -> None:
    for statement in GARDEN[:10]:
        vault.add(OWNER, Draft.of(statement=statement))
    plan = vault.discover_domains(OWNER, dry_run=True)
    assert plan["regions"] == [] and plan["moves"] == 0
    assert "50" in plan["reason"]


def test_discovery_dry_run_proposes_sensible_regions_and_changes_nothing(vault: Vault) -> None:
    fill(vault, explicit=False)
    assert {d for _, _, d in snapshot(vault).values()} == {"general"}
    before = (snapshot(vault), table(vault, "domains"), table(vault, "events"))
    plan = vault.discover_domains(OWNER, dry_run=True)
    assert (snapshot(vault), table(vault, "domains"), table(vault, "events")) == before
    assert plan["method"] == "vectors"
    assert 3 <= len(plan["regions"]) <= 6, plan
    assert plan["moves"] >= 50
    names = {r["name"] for r in plan["regions"]}
    assert len(names) == len(plan["regions"]) and "general" not in names
    for region in plan["regions"]:
        assert region["keywords"] and region["description"].startswith("About ")
        assert region["name"] == region["keywords"][0] or region["name"].startswith(region["keywords"][0])


def test_discovery_applied_keeps_every_record_and_finds_the_regions(vault: Vault) -> None:
    fill(vault, explicit=False)
    before = snapshot(vault)
    answer = vault.discover_domains(OWNER, dry_run=False)
    after = snapshot(vault)
    assert set(after) == set(before)
    assert all(after[i][:2] == before[i][:2] for i in before)  # statements and statuses untouched
    # Each discovered domain is mostly one fictional region, and each region mostly one domain.
    by_domain: dict[str, Counter[str]] = {}
    for statement, _, domain in after.values():
        by_domain.setdefault(domain, Counter())[TRUTH[statement]] += 1
    purity = sum(c.most_common(1)[0][1] for c in by_domain.values()) / len(after)
    assert purity >= 0.75, by_domain
    assert sum(by_domain.get("general", Counter()).values()) <= 6  # outliers stay where they were
    assert actions(vault)["domain_moved"] == answer["moves"]
    assert actions(vault, "domains_discovered")["domains_discovered"] == 1
    domains = {d["name"]: d for d in vault.list_domains(OWNER)["items"]}
    assert len(domains) >= 4
    assert all(d["keywords"] and d["has_centroid"] for name, d in domains.items() if name != "general")


def test_rediscovery_is_stable(vault: Vault) -> None:
    fill(vault, explicit=False)
    vault.discover_domains(OWNER, dry_run=False)
    again = vault.discover_domains(OWNER, dry_run=True)
    assert again["new_domains"] == []
    assert again["moves"] <= 6, again


def test_discovery_never_moves_what_the_person_placed_or_pinned(vault: Vault) -> None:
    placed = [vault.add(OWNER, Draft.of(statement=s, domain="hobbies"))["id"] for s in GARDEN[:8]]
    pinned = [vault.add(OWNER, Draft.of(statement=s, domain="money"))["id"] for s in FINANCE[:8]]
    vault.pin_domain(OWNER, "money")
    for statement in GARDEN[8:] + FINANCE[8:] + HEALTH + SOFTWARE:
        vault.add(OWNER, Draft.of(statement=statement))
    vault.discover_domains(OWNER, dry_run=False)
    after = snapshot(vault)
    assert {after[i][2] for i in placed} == {"hobbies"}
    assert {after[i][2] for i in pinned} == {"money"}
    assert vault.show_domain(OWNER, "money")["pinned"]
    # Records memvault placed join the regions the person made; other topics get their own.
    where = {region: Counter(d for s, _, d in after.values() if TRUTH[s] == region) for region in REGIONS}
    assert where["garden"].most_common(1)[0][0] == "hobbies"
    assert where["finance"].most_common(1)[0][0] == "money"
    assert not {"hobbies", "money"} & {where["health"].most_common(1)[0][0], where["software"].most_common(1)[0][0]}


def test_a_router_uses_what_discovery_learned(vault: Vault) -> None:
    fill(vault, explicit=False)
    vault.discover_domains(OWNER, dry_run=False)
    new = vault.add(OWNER, Draft.of(statement="Tomato seedlings in the greenhouse"))["id"]
    garden_domain = snapshot(vault)[new][2]
    assert garden_domain != "general"
    with vault.ctx.reading() as conn:
        decision = route(conn, OWNER, "when do the greenhouse seedlings get watered?", None)
    assert decision.names[0] == garden_domain


def test_maintain_discovers_once_then_refreshes(vault: Vault) -> None:
    fill(vault, explicit=False)
    assert vault.maintain_domains(OWNER)["action"] == "discovered"
    assert vault.maintain_domains(OWNER)["action"] == "refreshed"


# -- the person's operations -----------------------------------------------------------------
@pytest.fixture
def filled(vault: Vault) -> dict[str, list[str]]:
    return fill(vault)


def test_rename_keeps_every_record_and_its_history(vault: Vault, filled: dict[str, list[str]]) -> None:
    first = filled["garden"][0]
    newer = vault.correct(
        OWNER, CorrectRequest.of(id=first, statement="The tomato seedlings need watering every morning")
    )["id"]
    vault.update_domain(OWNER, "finance", keywords=["money"])
    with vault.ctx.transaction() as conn:
        conn.raw.execute("UPDATE domains SET related = '[\"garden\"]' WHERE name = 'finance'")
    before = snapshot(vault)
    answer = vault.rename_domain(OWNER, "garden", "allotment")
    assert answer == {"name": "allotment", "renamed_from": "garden", "records": 16}
    after = snapshot(vault)
    assert set(after) == set(before)
    assert {after[i][2] for i in [*filled["garden"], newer]} == {"allotment"}
    assert vault.get(OWNER, newer)["history"][0]["id"] == first
    assert vault.show_domain(OWNER, "finance")["related"] == ["allotment"]
    with pytest.raises(NotFound):
        vault.show_domain(OWNER, "garden")
    assert actions(vault)["domain_renamed"] == 1


def test_a_renamed_domain_moves_its_records_revisions(vault: Vault, filled: dict[str, list[str]]) -> None:
    before = vault.get(OWNER, filled["garden"][0])["memory"]
    vault.rename_domain(OWNER, "garden", "allotment")
    after = vault.get(OWNER, filled["garden"][0])["memory"]
    assert after["domain"] == "allotment" and after["revision"] == before["revision"] + 1
    assert vault.get(OWNER, filled["health"][0])["memory"]["revision"] == 1  # other domains untouched


def test_a_domain_approved_for_automatic_writes_stays_approved_when_renamed(
    vault: Vault, filled: dict[str, list[str]]
) -> None:
    vault.set_setting(OWNER, "auto_write_domains", ["garden", "health"])
    vault.rename_domain(OWNER, "garden", "allotment")
    assert vault.get_setting("auto_write_domains") == ["allotment", "health"]


def test_rename_refuses_a_taken_name_and_changes_nothing(vault: Vault, filled: dict[str, list[str]]) -> None:
    before = snapshot(vault), table(vault, "domains")
    with pytest.raises(Conflict):
        vault.rename_domain(OWNER, "garden", "finance")
    with pytest.raises(NotFound):
        vault.rename_domain(OWNER, "nowhere", "somewhere")
    with pytest.raises(InvalidArgument):
        vault.rename_domain(OWNER, "garden", "no/slashes")
    assert (snapshot(vault), table(vault, "domains")) == before


def test_merge_moves_every_record_and_removes_the_sources(vault: Vault, filled: dict[str, list[str]]) -> None:
    answer = vault.merge_domains(OWNER, ["garden", "health"], into="life")
    assert answer == {"into": "life", "merged": ["garden", "health"], "moved": 30}
    after = snapshot(vault)
    assert {after[i][2] for i in filled["garden"] + filled["health"]} == {"life"}
    assert {after[i][2] for i in filled["finance"]} == {"finance"}
    names = {d["name"] for d in vault.list_domains(OWNER)["items"]}
    assert "garden" not in names and "health" not in names and "life" in names
    assert actions(vault)["domain_moved"] == 30 and actions(vault)["domain_merged"] == 2
    assert vault.get(OWNER, filled["garden"][0])["memory"]["revision"] == 2


def test_a_merged_domain_answers_to_its_sources_words(vault: Vault, filled: dict[str, list[str]]) -> None:
    vault.update_domain(OWNER, "health", keywords=["wellbeing"])
    vault.update_domain(OWNER, "finance", keywords=["money"])
    vault.merge_domains(OWNER, ["health"], into="finance")
    assert vault.show_domain(OWNER, "finance")["keywords"] == ["money", "wellbeing"]
    with vault.ctx.reading() as conn:
        assert route(conn, OWNER, "wellbeing", None).names == ("finance",)


def test_a_pinned_domain_is_never_merged_away(vault: Vault, filled: dict[str, list[str]]) -> None:
    vault.pin_domain(OWNER, "health")
    before = snapshot(vault)
    with pytest.raises(Conflict):
        vault.merge_domains(OWNER, ["health"], into="garden")
    assert snapshot(vault) == before
    vault.pin_domain(OWNER, "health", pinned=False)
    assert vault.merge_domains(OWNER, ["health"], into="garden")["moved"] == 15


def test_split_by_keyword_moves_matching_records(vault: Vault, filled: dict[str, list[str]]) -> None:
    answer = vault.split_domain(OWNER, "garden", "greenhouse", keyword="greenhouse")
    assert answer["moved"] == 3
    after = snapshot(vault)
    moved = {i for i, (_, _, d) in after.items() if d == "greenhouse"}
    assert all("greenhouse" in after[i][0].lower() for i in moved)
    assert len([i for i in filled["garden"] if after[i][2] == "garden"]) == 12
    assert vault.show_domain(OWNER, "greenhouse")["related"] == ["garden"]


def test_split_by_ids(vault: Vault, filled: dict[str, list[str]]) -> None:
    chosen = filled["software"][:4]
    assert vault.split_domain(OWNER, "software", "devops", ids=chosen)["moved"] == 4
    assert {snapshot(vault)[i][2] for i in chosen} == {"devops"}


@pytest.mark.parametrize(
    ("by", "error"),
    [
        ({"keyword": "zyxwv"}, InvalidArgument),
        ({"keyword": "garden"}, None),  # placeholder replaced below
        ({"ids": ["m000000000000"]}, NotFound),
        ({}, InvalidArgument),
        ({"ids": "m1"}, InvalidArgument),
    ],
)
def test_split_refuses_what_it_cannot_do(
    vault: Vault, filled: dict[str, list[str]], by: dict[str, Any], error: type[Exception] | None
) -> None:
    if error is None:  # every finance record: that is a rename, not a split
        by, error = {"ids": filled["finance"]}, InvalidArgument
    before = snapshot(vault), table(vault, "domains")
    with pytest.raises(error):
        vault.split_domain(OWNER, "finance", "money", **by)
    assert (snapshot(vault), table(vault, "domains")) == before


def test_only_the_person_manages_domains(vault: Vault, filled: dict[str, list[str]]) -> None:
    with pytest.raises(Forbidden):
        vault.rename_domain(LOCAL_ASSISTANT, "garden", "allotment")
    with pytest.raises(Forbidden):
        vault.discover_domains(LOCAL_ASSISTANT, dry_run=False)
    with pytest.raises(Forbidden):
        vault.list_domains(REMOTE)
    assert len(vault.list_domains(LOCAL_ASSISTANT)["items"]) == 4


def test_update_tunes_the_router_inputs(vault: Vault, filled: dict[str, list[str]]) -> None:
    shown = vault.update_domain(OWNER, "health", keywords=["wellbeing"], priority=0.9, depth="deep")
    assert shown["keywords"] == ["wellbeing"] and shown["priority"] == 0.9 and shown["depth"] == "deep"
    with vault.ctx.reading() as conn:
        decision = route(conn, OWNER, "wellbeing check", None)
    assert decision.names == ("health",) and decision.depth == "deep"
    with pytest.raises(InvalidArgument):
        vault.update_domain(OWNER, "health", depth="bottomless")
    with pytest.raises(InvalidArgument):
        vault.update_domain(OWNER, "health", priority=2)


def test_the_persons_keywords_survive_refreshes_and_route_every_caller(vault: Vault) -> None:
    fill(vault, access_scope="remote_allowed")
    vault.update_domain(OWNER, "garden", keywords=["allotment", "=plot"])
    vault.refresh_domains(OWNER)
    shown = vault.show_domain(OWNER, "garden")
    assert shown["curated"] == ["allotment", "plot"]
    assert shown["keywords"][:2] == ["allotment", "plot"] and len(shown["keywords"]) > 2
    vault.refresh_domains(OWNER)
    assert vault.show_domain(OWNER, "garden")["curated"] == ["allotment", "plot"]
    with vault.ctx.reading() as conn:
        assert route(conn, REMOTE, "allotment", None).names == ("garden",)
        assert route(conn, OWNER, "allotment", None).names == ("garden",)


def test_discovery_never_makes_an_empty_domain(vault: Vault) -> None:
    """Every record placed by the person, across topics: regions exist but nothing may move."""
    statements = [s for region in REGIONS.values() for s in region]
    for n, statement in enumerate(statements):
        vault.add(OWNER, Draft.of(statement=statement, domain=f"box-{n % 4}"))
    before = {d["name"] for d in vault.list_domains(OWNER)["items"]}
    answer = vault.discover_domains(OWNER, dry_run=False)
    assert answer["moves"] == 0 and answer["new_domains"] == []
    assert {d["name"] for d in vault.list_domains(OWNER)["items"]} == before


def test_a_region_holding_shared_records_is_never_named_by_private_words(vault: Vault) -> None:
    """A domain's name travels with its records, so it must not carry words of hidden ones."""
    fill(vault, explicit=False, access_scope="remote_allowed")
    for n, statement in enumerate(HEALTH):
        vault.add(OWNER, Draft.of(statement=f"{statement} (quokkafever {n})"))
    vault.discover_domains(OWNER, dry_run=False)
    shared_domains = {
        row[0]
        for row in vault.ctx.store.raw.execute(
            "SELECT DISTINCT domain FROM memories WHERE access_scope = 'remote_allowed'"
        )
    }
    assert shared_domains and not any("quokka" in name for name in shared_domains)
    assert not any("quokka" in r["domain"] for r in vault.list_memories(REMOTE, ListRequest.of(limit=200))["items"])


def test_a_region_holding_workspace_records_is_never_named_by_private_words(vault: Vault) -> None:
    """Workspace callers see their records' domains too: no words of local-only records in them."""
    team = Caller(principal="team-bot", surface=Surface.WORKSPACE, workspace_id="ws-alpha")
    for statements in REGIONS.values():
        for statement in statements:
            vault.approve(OWNER, vault.add(team, Draft.of(statement=statement))["proposal_id"])
    for n, statement in enumerate(HEALTH):
        vault.add(OWNER, Draft.of(statement=f"{statement} (quokkafever {n})"))
    vault.discover_domains(OWNER, dry_run=False)
    seen = {r["domain"] for r in vault.list_memories(team, ListRequest.of(limit=200))["items"]}
    assert seen and not any("quokka" in name for name in seen), seen


def test_a_shared_write_of_the_person_is_placed_by_shared_records_only(vault: Vault) -> None:
    fill(vault)  # every record local_only
    private = vault.add(OWNER, Draft.of(statement="The greenhouse tomato seedlings need a bigger pot"))
    shared = vault.add(
        OWNER, Draft.of(statement="The greenhouse tomato seedlings need more light", access_scope="remote_allowed")
    )
    assert vault.get(OWNER, private["id"])["memory"]["domain"] == "garden"
    assert vault.get(OWNER, shared["id"])["memory"]["domain"] == "general"


def test_discovery_never_moves_a_shared_record_into_a_privately_named_domain(vault: Vault) -> None:
    for statement in HEALTH + GARDEN + FINANCE + SOFTWARE[:6]:
        vault.add(OWNER, Draft.of(statement=statement))  # local only
    vault.discover_domains(OWNER, dry_run=False)
    private_regions = {d["name"] for d in vault.list_domains(OWNER)["items"]} - {"general"}
    shared = [
        vault.add(OWNER, Draft.of(statement=f"{s} (shared copy)", access_scope="remote_allowed"))["id"]
        for s in HEALTH[:8]
    ]
    vault.discover_domains(OWNER, dry_run=False)
    landed = {vault.get(OWNER, i)["memory"]["domain"] for i in shared}
    assert not landed & private_regions, landed


def test_maintain_places_records_waiting_in_general_by_their_meaning(vault: Vault) -> None:
    fill(vault)
    vault.discover_domains(OWNER, dry_run=False)
    expected = {
        "Picked up a new trowel and some seed trays": "garden",
        "Paid off the overdraft this week": "finance",
        "Pulled a hamstring at badminton": "health",
        "Merged the feature branch after review": "software",
        "Zyx wibble frobnicate": "general",
    }
    ids = {vault.add(OWNER, Draft.of(statement=s))["id"]: domain for s, domain in expected.items()}
    waiting = [i for i in ids if vault.get(OWNER, i)["memory"]["domain"] == "general"]
    answer = vault.maintain_domains(OWNER)
    assert answer["action"] == "refreshed"
    placed = {i: vault.get(OWNER, i)["memory"]["domain"] for i in ids}
    assert all(placed[i] in (ids[i], "general") for i in ids), placed  # never a wrong region
    assert placed[next(i for i, d in ids.items() if d == "general")] == "general"
    assert answer["settled"] == sum(1 for i in waiting if placed[i] != "general") >= 2


def test_settling_never_moves_out_of_a_domain_pinned_meanwhile(
    vault: Vault, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The routing runs outside the write transaction: a pin made meanwhile (the person, in the
    desktop app) must still hold when the moves are applied."""
    fill(vault)
    vault.discover_domains(OWNER, dry_run=False)
    ids = [vault.add(OWNER, Draft.of(statement=s))["id"] for s in ("Picked up a new trowel and some seed trays",)]
    assert vault.get(OWNER, ids[0])["memory"]["domain"] == "general"
    real_route = upkeep_module.route

    def route_while_the_person_pins(*args: Any, **kwargs: Any) -> Any:
        with Vault.open(home) as other:  # another process's connection
            if not other.show_domain(OWNER, "general")["pinned"]:
                other.pin_domain(OWNER, "general")
        return real_route(*args, **kwargs)

    monkeypatch.setattr(upkeep_module, "route", route_while_the_person_pins)
    assert vault.maintain_domains(OWNER)["settled"] == 0
    assert vault.get(OWNER, ids[0])["memory"]["domain"] == "general"


def test_discovery_never_moves_out_of_a_domain_pinned_meanwhile(
    vault: Vault, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(vault, explicit=False)
    before = snapshot(vault)
    assert any(domain == "general" for _, _, domain in before.values())
    real_plan = upkeep_module.discovery.plan_discovery

    def plan_while_the_person_pins(*args: Any, **kwargs: Any) -> Any:
        with Vault.open(home) as other:  # the clustering runs outside any transaction
            other.pin_domain(OWNER, "general")
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(upkeep_module.discovery, "plan_discovery", plan_while_the_person_pins)
    vault.discover_domains(OWNER, dry_run=False)
    after = snapshot(vault)
    assert [i for i in before if before[i][2] == "general"] == [i for i in after if after[i][2] == "general"]


@pytest.mark.parametrize(("upkeep", "action", "moves"), [("refresh", "refreshed", False), ("off", "none", False)])
def test_the_person_can_keep_upkeep_from_moving_anything(vault: Vault, upkeep: str, action: str, moves: bool) -> None:
    fill(vault, explicit=False)
    vault.set_setting(OWNER, "domain_upkeep", upkeep)
    before = snapshot(vault)
    assert vault.maintain_domains(OWNER)["action"] == action
    assert snapshot(vault) == before


def test_a_keyword_less_domain_is_learned_again_once_its_records_drift(vault: Vault) -> None:
    """The full view keeps a keyword-less domain's learned words while its records change a little
    and learns them again past LEARNED_DRIFT (more than 10 records here): the size it compares
    comes from the router's own live counts per domain."""
    for i in range(20):
        vault.add(OWNER, Draft.of(statement=f"Watered the tomato seedlings in bed {i}", domain="garden"))
        vault.add(OWNER, Draft.of(statement=f"Paid the electricity invoice number {i}", domain="bills"))
    query = "compost and mulch for the orchard"

    def garden_score() -> float:
        with vault.ctx.reading() as conn:
            return route(conn, LOCAL_ASSISTANT, query, None).scores.get("garden", 0.0)

    assert garden_score() == 0.0
    orchard = [f"Spread compost and mulch under the orchard trees, row {i}" for i in range(12)]
    for statement in orchard[:5]:
        vault.add(OWNER, Draft.of(statement=statement, domain="garden"))
    assert garden_score() == 0.0  # 5 of 45: the learned words are kept
    for statement in orchard[5:]:
        vault.add(OWNER, Draft.of(statement=statement, domain="garden"))
    assert garden_score() > 0.0  # 12 since they were learned: learned again


def test_a_cached_count_is_trusted_only_while_the_writes_since_cannot_have_moved_it_too_far() -> None:
    """Each write moves the store's write counter by at least one per changed row, so a live count
    can have moved by at most that much since it was last taken (LEARNED_DRIFT: 10 rows or 10 %)."""
    from memvault.core.retrieval.domain_profiles import _Counted  # noqa: PLC0415

    fresh = _Counted(size=100, checked_size=100, checked_at=50)
    assert fresh.surely_within(60) and not fresh.surely_within(61)
    assert not fresh.surely_within(49)  # the counter went back: count again
    moved = _Counted(size=100, checked_size=105, checked_at=50)  # the last count had moved by 5
    assert moved.surely_within(55) and not moved.surely_within(56)
    assert _Counted(size=1000, checked_size=1000, checked_at=0).surely_within(100)  # 10 % of 1000
