"""Access scope on every surface: a record a caller may not see behaves exactly like a missing one."""

from __future__ import annotations

from typing import Any

import pytest
from corekit import ASSISTANT, OTHER_REMOTE, OWNER, REMOTE, WORKSPACE_A, WORKSPACE_B, Adder, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden, NotFound
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ListRequest
from memvault.core.vocabulary.results import Counts
from memvault.core.vocabulary.search_request import SearchRequest

PRIVATE = "Dr Okonkwo adjusted the Velmora dosage after the March checkup"
SHARED = "The Velmora pharmacy on Quay Street opens at eight"
MISSING_ID = "m0000deadbeef"


def _ids(items: list[dict[str, Any]]) -> set[str]:
    return {item["id"] for item in items}


def _not_found_message(vault: Vault, caller: Caller, memory_id: str) -> tuple[str, str]:
    with pytest.raises(NotFound) as raised:
        vault.get(caller, memory_id)
    return raised.value.code, str(raised.value)


@pytest.fixture
def records(vault: Vault, add: Adder) -> dict[str, str]:
    return {
        "private": add(PRIVATE, domain="health"),  # local_only: a local write's default
        "shared": add(SHARED, domain="health", access_scope="remote_allowed"),
    }


def test_local_only_is_invisible_to_remote_get_with_the_missing_message(vault: Vault, records: dict[str, str]) -> None:
    assert vault.get(REMOTE, records["shared"])["memory"]["statement"] == SHARED
    hidden = _not_found_message(vault, REMOTE, records["private"])
    missing = _not_found_message(vault, REMOTE, MISSING_ID)
    assert hidden == missing == ("not_found", "no such memory")
    assert vault.get(OWNER, records["private"])["memory"]["statement"] == PRIVATE


def test_local_only_is_invisible_to_remote_list_search_and_events(vault: Vault, records: dict[str, str]) -> None:
    assert _ids(vault.list_memories(REMOTE)["items"]) == {records["shared"]}
    assert _ids(vault.list_memories(REMOTE, ListRequest.of(domain="health"))["items"]) == {records["shared"]}
    assert _ids(vault.list_memories(OWNER)["items"]) == set(records.values())
    answer = vault.search(REMOTE, SearchRequest.of(query="Velmora dosage checkup Okonkwo"))
    assert _ids(answer["results"]) <= {records["shared"]}
    assert "Okonkwo" not in answer["packet"]
    assert _ids(vault.search(OWNER, SearchRequest.of(query="Velmora dosage"))["results"]) >= {records["private"]}
    with pytest.raises(NotFound, match="no such memory"):
        vault.events_for(REMOTE, records["private"])


def test_remote_changes_to_an_invisible_record_are_not_found(vault: Vault, records: dict[str, str]) -> None:
    before = dump(vault)
    for attempt in (
        lambda i: vault.correct(REMOTE, CorrectRequest.of(id=i, statement="The Velmora dosage was halved in April")),
        lambda i: vault.archive(REMOTE, ArchiveRequest.of(id=i)),
        lambda i: vault.restore(REMOTE, i),
    ):
        messages = []
        for memory_id in (records["private"], MISSING_ID):
            with pytest.raises(NotFound) as raised:
                attempt(memory_id)
            messages.append(str(raised.value))
        assert messages[0] == messages[1]
    assert dump(vault) == before


def test_status_counts_do_not_reveal_invisible_records(vault: Vault, add: Adder) -> None:
    add(SHARED, domain="health", access_scope="remote_allowed")
    before = vault.status(REMOTE)["counts"]
    add(PRIVATE, domain="health")
    add("The Thornbury solicitor holds the will", domain="legal")
    hidden = add("The old Thornbury address was on Mill Lane", domain="legal")
    vault.archive(OWNER, ArchiveRequest.of(id=hidden))
    assert vault.status(REMOTE)["counts"] == before
    assert "legal" not in before["by_domain"]
    counts = vault.status(OWNER)["counts"]
    assert counts["total"] == 4 and counts["archived"] == 1
    assert set(counts) == set(Counts.__annotations__)  # every status, no more: the TypedDict is the answer


def test_links_and_history_in_get_leave_out_invisible_records(vault: Vault, records: dict[str, str]) -> None:
    """The visible successor of a hidden record: made by a direct UPDATE, as no API re-scopes records."""
    linking = vault.add(
        OWNER,
        Draft.of(
            statement="Collect the Velmora prescription on Fridays",
            domain="health",
            access_scope="remote_allowed",
            links=[
                {"type": "depends_on", "target_id": records["private"]},
                {"type": "relates_to", "target_id": records["shared"]},
            ],
        ),
    )["id"]
    remote_links = vault.get(REMOTE, linking)["links"]
    assert remote_links == [{"type": "relates_to", "target_id": records["shared"]}]
    assert len(vault.get(OWNER, linking)["links"]) == 2

    successor = vault.correct(
        OWNER, CorrectRequest.of(id=records["private"], statement="Dr Okonkwo kept the Velmora dosage in April")
    )
    vault.ctx.store.raw.execute("UPDATE memories SET access_scope = 'remote_allowed' WHERE id = ?", (successor["id"],))
    got = vault.get(REMOTE, successor["id"])
    assert got["history"] == []
    assert {"type": "supersedes", "target_id": records["private"]} not in got["links"]
    assert [h["id"] for h in vault.get(OWNER, successor["id"])["history"]] == [records["private"]]


def test_a_remote_add_of_a_local_only_statement_is_not_a_duplicate(vault: Vault, records: dict[str, str]) -> None:
    before = vault.get(OWNER, records["private"])["memory"]
    answer = vault.add(REMOTE, Draft.of(statement=PRIVATE, domain="health"))
    assert answer["outcome"] != "duplicate"
    assert answer["duplicate_of"] is None and answer["id"] != records["private"]
    assert vault.get(OWNER, records["private"])["memory"] == before  # last_confirmed_at and revision untouched
    approved = vault.approve(OWNER, answer["proposal_id"])
    assert approved["outcome"] == "added" and approved["id"] != records["private"]
    assert vault.get(REMOTE, approved["id"])["memory"]["access_scope"] == "remote_allowed"


def test_a_remote_write_gets_no_domain_from_invisible_records(vault: Vault, add: Adder) -> None:
    for i in range(3):
        add(f"Velmora dosage note number {i} from the oncology clinic", domain="private-oncology")
    # Asked for remote_allowed: a sensitive record the caller did not scope would stay local_only.
    question = Draft.of(statement="Velmora dosage questions for the oncology clinic", access_scope="remote_allowed")
    staged = vault.add(REMOTE, question)
    record = vault.approve(OWNER, staged["proposal_id"])
    assert vault.get(REMOTE, record["id"])["memory"]["domain"] != "private-oncology"


def test_workspace_sees_its_own_workspace_records_only(vault: Vault, records: dict[str, str]) -> None:
    staged = vault.add(WORKSPACE_A, Draft.of(statement="The alpha team deploys on Thursdays", domain="team"))
    alpha = vault.approve(OWNER, staged["proposal_id"])["id"]
    assert vault.get(OWNER, alpha)["memory"]["access_scope"] == "workspace_allowed"
    ownerless = vault.add(
        OWNER, Draft.of(statement="The beta team deploys on Mondays", domain="team", access_scope="workspace_allowed")
    )["id"]
    assert vault.get(WORKSPACE_A, alpha)["memory"]["statement"] == "The alpha team deploys on Thursdays"
    assert _ids(vault.list_memories(WORKSPACE_A)["items"]) == {alpha, records["shared"]}
    assert _ids(vault.search(WORKSPACE_A, SearchRequest.of(query="team deploys"))["results"]) == {alpha}
    for outsider in (WORKSPACE_B, REMOTE):
        assert _not_found_message(vault, outsider, alpha) == _not_found_message(vault, outsider, MISSING_ID)
        assert _ids(vault.search(outsider, SearchRequest.of(query="team deploys"))["results"]) == set()
        assert alpha not in _ids(vault.list_memories(outsider)["items"])
    assert _not_found_message(vault, WORKSPACE_A, ownerless)[0] == "not_found"
    assert vault.status(WORKSPACE_A)["counts"]["total"] == 2
    assert vault.status(WORKSPACE_B)["counts"]["total"] == 1


def test_a_record_bound_to_a_principal_is_for_that_principal_and_local_only(
    vault: Vault, records: dict[str, str]
) -> None:
    """No API binds a record to a principal yet, so the binding is set by a direct UPDATE."""
    bound = records["shared"]
    vault.ctx.store.raw.execute(
        "UPDATE memories SET authorized_principal_id = ? WHERE id = ?", (REMOTE.principal, bound)
    )
    assert vault.get(REMOTE, bound)["memory"]["id"] == bound
    assert _ids(vault.search(REMOTE, SearchRequest.of(query="Velmora pharmacy"))["results"]) == {bound}
    assert vault.get(OWNER, bound)["memory"]["id"] == bound
    assert _not_found_message(vault, OTHER_REMOTE, bound) == _not_found_message(vault, OTHER_REMOTE, MISSING_ID)
    assert _ids(vault.search(OTHER_REMOTE, SearchRequest.of(query="Velmora pharmacy"))["results"]) == set()
    assert vault.list_memories(OTHER_REMOTE)["items"] == []
    assert vault.status(OTHER_REMOTE)["counts"]["total"] == 0
    assert vault.status(REMOTE)["counts"]["total"] == 1


def test_a_correction_keeps_the_principal_binding(vault: Vault, records: dict[str, str]) -> None:
    bound = records["shared"]
    vault.ctx.store.raw.execute(
        "UPDATE memories SET authorized_principal_id = ? WHERE id = ?", (REMOTE.principal, bound)
    )
    new = vault.correct(
        OWNER, CorrectRequest.of(id=bound, statement="The Velmora pharmacy on Quay Street opens at nine")
    )["id"]
    assert vault.get(REMOTE, new)["memory"]["statement"].endswith("at nine")
    with pytest.raises(NotFound):
        vault.get(OTHER_REMOTE, new)


@pytest.mark.parametrize("scope", ["local_only", "workspace_allowed"])
def test_remote_may_not_add_records_it_could_not_see(vault: Vault, scope: str) -> None:
    before = dump(vault)
    with pytest.raises(Forbidden):
        vault.add(REMOTE, Draft.of(statement="The garden gate code changed in spring", access_scope=scope))
    assert dump(vault) == before


def test_workspace_may_not_add_local_only(vault: Vault) -> None:
    before = dump(vault)
    with pytest.raises(Forbidden):
        vault.add(WORKSPACE_A, Draft.of(statement="The alpha team retro is on Fridays", access_scope="local_only"))
    assert dump(vault) == before


def test_only_the_person_approves_rejects_reads_the_inbox_or_changes_settings(vault: Vault) -> None:
    staged = vault.add(REMOTE, Draft.of(statement="The Quay Street pharmacy closes at six"))
    before = dump(vault)
    for caller in (REMOTE, WORKSPACE_A, ASSISTANT):
        with pytest.raises(Forbidden):
            vault.approve(caller, staged["proposal_id"])
        with pytest.raises(Forbidden):
            vault.reject(caller, staged["proposal_id"])
        with pytest.raises(Forbidden):
            vault.proposals(caller)
        with pytest.raises(Forbidden):
            vault.set_setting(caller, "write_mode", "automatic-write-within-approved-scope")
        with pytest.raises(Forbidden):
            vault.set_kill_switch(caller, "off")
    assert dump(vault) == before
    assert vault.get_setting("write_mode") == "review-before-write"


def test_remote_pending_count_covers_its_own_proposals_only(vault: Vault) -> None:
    vault.add(ASSISTANT, Draft.of(statement="The Quay Street pharmacy closes at six"))
    vault.add(REMOTE, Draft.of(statement="The Quay Street bakery opens at seven"))
    assert vault.status(OWNER)["pending_proposals"] == 2
    assert vault.status(REMOTE)["pending_proposals"] == 1
    assert vault.status(OTHER_REMOTE)["pending_proposals"] == 0


def test_a_remote_link_to_a_hidden_record_is_like_a_link_to_nothing(vault: Vault, records: dict[str, str]) -> None:
    before = dump(vault)
    messages = []
    for target in (records["private"], MISSING_ID):
        with pytest.raises(NotFound) as raised:
            vault.add(
                REMOTE,
                Draft.of(
                    statement="Ask about the Velmora refill at the Quay Street counter",
                    links=[{"type": "relates_to", "target_id": target}],
                ),
            )
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert dump(vault) == before


def test_remote_filters_naming_hidden_domains_find_nothing(vault: Vault, add: Adder) -> None:
    add("The Thornbury solicitor holds the will", domain="legal")
    assert vault.list_memories(REMOTE, ListRequest.of(domain="legal"))["items"] == []
    assert vault.search(REMOTE, SearchRequest.of(query="Thornbury solicitor", domains=["legal"]))["results"] == []
    assert vault.search(REMOTE, SearchRequest.of(query="Thornbury solicitor will"))["domains"] == []


@pytest.mark.parametrize("depth", ["auto", "shallow", "normal", "deep"])
def test_search_never_reaches_a_hidden_record_through_links_or_entities(
    vault: Vault, records: dict[str, str], depth: str
) -> None:
    vault.add(
        OWNER,
        Draft.of(
            statement="Velmora prescription pickup is on Fridays at the Quay Street counter",
            domain="health",
            access_scope="remote_allowed",
            entities=["Velmora", "Dr Okonkwo"],
            links=[{"type": "depends_on", "target_id": records["private"]}],
        ),
    )
    vault.add(
        OWNER, Draft.of(statement="Dr Okonkwo prefers morning appointments", domain="health", entities=["Dr Okonkwo"])
    )
    for query in ("Velmora prescription pickup Fridays", "Quay Street counter", "Okonkwo appointments"):
        answer = vault.search(REMOTE, SearchRequest.of(query=query, depth=depth, include_history=True))
        assert records["private"] not in _ids(answer["results"])
        assert all(hit["access_scope"] == "remote_allowed" for hit in answer["results"])
        assert "Okonkwo adjusted" not in answer["packet"] and "morning appointments" not in answer["packet"]
