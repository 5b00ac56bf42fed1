"""What the domain, view and neighbour repositories mean, asked through the `Store` protocol alone, on
every engine (`store` in conftest.py): the PostgreSQL engine's `domain_rows`, `view_queries` and
`neighbour_rows` are held to the SQLCipher engine's answers."""

from __future__ import annotations

from typing import Any

import pytest

from memvault.core.store.rows import ProjectKey
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, MemoryId, Surface
from memvault.core.writer.writes import commit_draft

REMOTE = Caller(principal="tunnel-assistant", surface=Surface.REMOTE)
T1, T2, T3, T4 = (f"2026-12-0{day}T10:00:00Z" for day in (1, 2, 3, 4))
LATER = "2026-12-07T11:00:00Z"
WRITING = ("memories", "events", "record_kinds")


def _add(
    store: Store,
    statement: str,
    *,
    now: str = T1,
    scope: str = "local_only",
    domain: str = "home",
    supersedes: str | None = None,
    **fields: Any,
) -> MemoryId:
    draft = Draft.of(statement=statement, domain=domain, access_scope=scope, **fields)
    with store.write_transaction() as writing:
        return commit_draft(writing, OWNER, draft, None, now, supersedes=supersedes)


# -- domains -----------------------------------------------------------------------------------------


def test_a_domain_keeps_its_fields_and_the_persons_keywords_first(store: Store) -> None:
    with store.write_transaction() as writing:
        writing.domains.insert("garden", T1, description="Beds and borders", keywords=["roses", "compost"])
        writing.domains.insert("Workshop", T1)
    with store.read_snapshot() as reading:
        garden = reading.domains.fetch("garden")
        assert reading.domains.fetch("cellar") is None
        assert [row["name"] for row in reading.domains.all_domains()] == [
            "Workshop",
            "garden",
        ]  # in byte order, as SQLite sorts
    assert garden is not None
    assert (garden["description"], garden["keywords"], garden["curated"]) == (
        "Beds and borders",
        ["roses", "compost"],
        [],
    )
    assert (garden["related"], garden["pinned"], garden["depth"], garden["centroid"]) == ([], False, "normal", None)
    assert garden["created_at"] == garden["updated_at"] == T1
    centroid = bytes(range(8))
    with store.write_transaction() as writing:
        writing.domains.update("garden", T2, curated=["allotment", "roses"])
        writing.domains.update("garden", T3, pinned=1, centroid=centroid, priority=0.9, related=["Workshop"])
    with store.read_snapshot() as reading:
        garden = reading.domains.fetch("garden")
    assert garden is not None
    assert (garden["keywords"], garden["curated"]) == (["allotment", "roses", "compost"], ["allotment", "roses"])
    assert (garden["pinned"], garden["centroid"], garden["priority"], garden["related"]) == (
        True,
        centroid,
        0.9,
        ["Workshop"],
    )
    assert garden["updated_at"] == T3
    with store.write_transaction() as writing:
        writing.domains.update("garden", LATER, keywords=["soil"])  # the derived ones alone change
        with pytest.raises(ValueError, match="not editable"):
            writing.domains.update("garden", LATER, kind="yard")
    with store.read_snapshot() as reading:
        garden = reading.domains.fetch("garden")
    assert garden is not None and garden["keywords"] == ["allotment", "roses", "soil"]
    with store.write_transaction() as writing:
        writing.domains.delete("Workshop")
    with store.read_snapshot() as reading:
        assert [row["name"] for row in reading.domains.all_domains()] == ["garden"]


def test_a_rename_carries_the_records_and_the_related_lists(store: Store) -> None:
    shed = _add(store, "The shed key hangs by the back door", domain="garden")
    _add(store, "The kettle descaler is under the sink")
    with store.write_transaction() as writing:
        writing.domains.update("home", T2, related=["garden"])
    with store.read_snapshot() as reading:
        before = reading.memories.status_of(shed)
    with store.write_transaction() as writing:
        writing.domains.rename("garden", "allotment", LATER)
    with store.read_snapshot() as reading:
        record = reading.memories.fetch(OWNER, shed)
        home = reading.domains.fetch("home")
        assert reading.domains.fetch("garden") is None
        assert reading.domains.ids_in("allotment") == [shed] and reading.domains.ids_in("garden") == []
        assert reading.memories.status_of(shed) == ("current", (before or ("", 0))[1] + 1)
    assert record is not None and record.domain == "allotment" and record.updated_at == LATER
    assert home is not None and home["related"] == ["allotment"]
    with store.write_transaction() as writing:
        writing.domains.replace_in_related("allotment", None, LATER)
    with store.read_snapshot() as reading:
        home = reading.domains.fetch("home")
    assert home is not None and home["related"] == []


def test_records_move_with_their_history_and_the_counts_follow(store: Store) -> None:
    old = _add(store, "The compost bin is green")
    new = _add(store, "The compost bin is black", now=T2, supersedes=old)
    other = _add(store, "The hedge trimmer needs oil", scope="remote_allowed", now=T3)
    with store.write_transaction() as writing:
        writing.memories.update(old, T2, status="superseded", superseded_by_id=new, superseded_at=T2)
    with store.read_snapshot() as reading:
        assert reading.domains.with_history([new]) == sorted([old, new])
        assert reading.domains.with_history([]) == []
    with store.write_transaction() as writing:
        writing.memories.ensure_domain("garden", T3)
        moved = writing.domains.move(writing.domains.with_history([new]), "garden", LATER)
        again = writing.domains.move([new, other], "garden", LATER)  # `new` is there already
    assert (moved, again) == (2, 1)
    with store.write_transaction() as writing:
        writing.domains.insert("empty", LATER)
    with store.read_snapshot() as reading:
        domains = reading.domains
        assert domains.record_count("garden") == 3 and domains.record_count("home") == 0
        assert domains.ids_in("garden") == sorted([old, new, other])
        assert domains.counts_by_status() == {"garden": {"current": 2, "superseded": 1}}
        assert domains.live_count() == 2
        assert domains.live_counts() == {"garden": 2}
        assert domains.live_counts(viewer=REMOTE) == {"garden": 1}
        assert domains.live_count_in(["garden", "empty"]) == 2
        assert domains.live_count_in(["garden"], viewer=REMOTE) == 1
        assert domains.live_count_in([]) == 0
        assert domains.domains_in_use(OWNER) == {"garden"} and domains.domains_in_use(REMOTE) == {"garden"}
        texts = domains.live_texts(REMOTE, [old, new, other])
        assert texts == {other: ("garden", "The hedge trimmer needs oil ")}
        assert domains.live_texts(OWNER, []) == {}
        assert set(domains.live_texts(OWNER, [old, new, other])) == {new, other}


def test_a_domains_texts_and_vectors_within_a_view(store: Store) -> None:
    mine = _add(store, "The greenhouse vent sticks", domain="garden", tags=["project:Glasshouse", "repairs"])
    shared = _add(store, "The water butt holds 200 litres", domain="garden", scope="remote_allowed", now=T2)
    blob = bytes(range(16))
    with store.write_transaction() as writing:
        writing.vectors.put("model-a", [(shared, blob)])
    with store.read_snapshot() as reading:
        assert reading.domains.statements("garden") == [
            "The water butt holds 200 litres ",
            "The greenhouse vent sticks Glasshouse repairs",
        ]
        assert reading.domains.statements("garden", 1) == ["The water butt holds 200 litres "]
        assert reading.domains.statements("garden", viewer=REMOTE) == ["The water butt holds 200 litres "]
        assert reading.domains.domain_vectors("garden") == [blob]
        assert reading.domains.domain_vectors("garden", viewer=REMOTE) == [blob]
        records = reading.domains.live_records()
    assert records == [
        {"id": mine, "domain": "garden", "text": "The greenhouse vent sticks Glasshouse repairs", "vector": None,
         "shared": False},
        {"id": shared, "domain": "garden", "text": "The water butt holds 200 litres ", "vector": blob, "shared": True},
    ]  # fmt: skip


def test_neighbours_and_matches_by_word(store: Store) -> None:
    both = _add(store, "The compost heap is by the Crème fence", domain="garden", scope="remote_allowed")
    one = _add(store, "Compost goes out on Fridays", now=T2)
    tagged = _add(store, "The bins are collected early", now=T3, tags=["compost"])
    gone = _add(store, "The old heap was cleared", domain="garden", now=T4)
    _add(store, "The fence was painted", domain="garden", now=T4)
    with store.write_transaction() as writing:
        writing.memories.update(gone, LATER, status="archived", archived_reason="done")
    with store.read_snapshot() as reading:
        domains = reading.domains
        near = domains.neighbours(OWNER, ["compost", "heap"], 5)
        assert near[0] == ("garden", "The compost heap is by the Crème fence ")  # it holds both words
        assert sorted(near[1:]) == [
            ("home", "Compost goes out on Fridays "),
            ("home", "The bins are collected early compost"),
        ]
        assert len(domains.neighbours(OWNER, ["compost"], 2)) == 2
        assert domains.neighbours(REMOTE, ["compost", "heap"], 5) == [
            ("garden", "The compost heap is by the Crème fence ")
        ]
        assert domains.neighbours(OWNER, ["zanzibar"], 5) == []
        assert domains.neighbours(OWNER, ['"; DROP'], 5) == []  # a word is a word, never query syntax
        assert domains.ids_matching("garden", ["HEAP"]) == sorted([both, gone])  # any status
        assert domains.ids_matching("garden", ["creme"]) == [both]  # diacritics folded
        assert domains.ids_matching("home", ["compost"]) == sorted([one, tagged])
        assert domains.ids_matching("home", ["heap", "fridays"]) == [one]


def test_the_domain_events_name_what_memvault_chose_and_discovered(store: Store) -> None:
    placed = _add(store, "The porch light is on a timer")
    moved = _add(store, "The doorbell battery is a CR2032")
    with store.read_snapshot() as reading:
        start = reading.domains.version()
        assert reading.domains.last_discovery_size() is None
    with store.write_transaction() as writing:
        writing.events.record(OWNER, "domain_assigned", T2, placed, domain="home")
        writing.events.record(OWNER, "domain_assigned", T2, moved, domain="home")
        writing.events.record(OWNER, "domain_moved", T3, moved, automatic=False)
        writing.domains.insert("porch", T3)
        writing.events.record(OWNER, "domain_created", T3, None, domain="porch", discovered=True)
        writing.events.record(OWNER, "domain_created", T3, None, domain="home", discovered=False)
        writing.events.record(OWNER, "domain_created", T3, None, domain="vanished", discovered=True)
        writing.events.record(OWNER, "domains_discovered", T3, None, records=12)
        writing.events.record(OWNER, "domains_discovered", T4, None, records=14)
    with store.read_snapshot() as reading:
        assert reading.domains.assigned_ids() == {placed}
    with store.write_transaction() as writing:
        writing.events.record(OWNER, "domain_moved", T4, placed, automatic=True)
    with store.read_snapshot() as reading:
        assert reading.domains.assigned_ids() == {placed}
        assert reading.domains.assigned_ids(on_write_only=True) == set()
        assert reading.domains.last_discovery_size() == 14
        assert reading.domains.discovered_names() == {"porch"}
        identity, writes, cursor = reading.domains.version()
    assert identity == start[0] and writes > start[1] and cursor > start[2]


# -- views -------------------------------------------------------------------------------------------


def test_a_timeline_holds_every_version_in_knowledge_order_and_every_term_must_match(store: Store) -> None:
    booked = _add(store, "The roof repair was booked with Calloway Builders", entities=["Calloway Builders"])
    tiles = _add(store, "The roof tiles are slate", now=T2, scope="remote_allowed")
    cafe = _add(store, "The repair café opens on Saturdays", now=T3, domain="town", scope="remote_allowed")
    done = _add(store, "The roof repair is finished", now=T4, supersedes=booked)
    hidden = _add(store, "The roof insurance renewal came", now=T4)
    with store.write_transaction() as writing:
        writing.memories.update(booked, T4, status="superseded", superseded_by_id=done, superseded_at=T4)
        writing.memories.update(hidden, LATER, status="archived", archived_reason="sorted")
    with store.read_snapshot() as reading:
        views = reading.views
        everything = views.timeline_records(OWNER, domain=None, entity=None, limit=10)
        assert [(record.id, at) for record, at in everything] == [
            (done, None),
            (cafe, None),
            (tiles, None),
            (booked, T4),
        ]
        both = views.timeline_records(
            OWNER, every_term=[("roof", False), ("repair", False)], domain=None, entity=None, limit=10
        )
        assert sorted(record.id for record, _ in both) == sorted([booked, done])
        prefix = views.timeline_records(OWNER, every_term=[("repai", True)], domain=None, entity=None, limit=10)
        assert [record.id for record, _ in prefix] == [done, cafe, booked]
        folded = views.timeline_records(OWNER, every_term=[("cafe", False)], domain=None, entity=None, limit=10)
        assert [record.id for record, _ in folded] == [cafe]
        assert (
            views.timeline_records(
                OWNER, every_term=[("roof", False), ("zanzibar", False)], domain=None, entity=None, limit=10
            )
            == []
        )
        by_domain = views.timeline_records(OWNER, domain="town", entity=None, limit=10)
        assert [record.id for record, _ in by_domain] == [cafe]
        by_entity = views.timeline_records(OWNER, domain=None, entity="calloway builders", limit=10)
        assert [record.id for record, _ in by_entity] == [booked]
        remote = views.timeline_records(REMOTE, domain=None, entity=None, limit=10)
        assert [record.id for record, _ in remote] == [cafe, tiles]
        assert len(views.timeline_records(OWNER, domain=None, entity=None, limit=2)) == 2
        # a window holds a record when any of its moments falls in it; with a start, oldest first
        since = views.timeline_records(OWNER, domain=None, entity=None, start=T3, limit=10)
        assert [record.id for record, _ in since] == [booked, cafe, done]  # booked: superseded at T4
        until = views.timeline_records(OWNER, domain=None, entity=None, end=T2, limit=10)
        assert [record.id for record, _ in until] == [tiles, booked]
        within = views.timeline_records(OWNER, domain=None, entity=None, start=T2, end=T3, limit=10)
        assert [record.id for record, _ in within] == [booked, tiles, cafe]  # booked: known from T1 to T4


def test_archive_and_restore_events_of_records(store: Store) -> None:
    shelf = _add(store, "The loft ladder is in the garage")
    other = _add(store, "The loft is insulated")
    with store.write_transaction() as writing:
        writing.events.record(OWNER, "archived", T2, shelf, reason="moved house")
        writing.events.record(OWNER, "restored", T3, shelf)
        writing.events.record(OWNER, "corrected", T3, other)
    with store.read_snapshot() as reading:
        assert reading.views.state_events([shelf, other]) == [(shelf, "archived", T2), (shelf, "restored", T3)]
        assert reading.views.state_events([]) == []


def test_decisions_newest_first_with_history_when_asked(store: Store) -> None:
    first = _add(store, "We chose oak for the floor", type="DECISION", tags=["project:Parquet"])
    second = _add(store, "We chose walnut for the floor", type="DECISION", now=T2, tags=["project:Parquet"])
    dated = _add(
        store, "We chose the blue tiles", type="DECISION", now=T3, event_time="2026-11-20T10:00:00Z", domain="bathroom"
    )
    _add(store, "The floor is 40 square metres", now=T3, tags=["project:Parquet"])
    shared = _add(store, "We chose a shared calendar", type="DECISION", now=T4, scope="remote_allowed")
    with store.write_transaction() as writing:
        writing.memories.update(first, T2, status="superseded", superseded_by_id=second, superseded_at=T2)
    with store.read_snapshot() as reading:
        views = reading.views
        live = views.decisions(OWNER, project=None, domain=None, include_history=False, limit=10)
        assert [m.id for m in live] == [shared, second, dated]  # decided at the event time when given
        history = views.decisions(OWNER, project=None, domain=None, include_history=True, limit=10)
        assert [m.id for m in history] == [shared, second, first, dated]
        project = views.project_key(OWNER, "Parquet", "parquet")
        assert project is not None
        in_project = views.decisions(OWNER, project=project, domain=None, include_history=True, limit=10)
        assert [m.id for m in in_project] == [second, first]
        assert [
            m.id for m in views.decisions(OWNER, project=None, domain="bathroom", include_history=False, limit=10)
        ] == [dated]
        assert [m.id for m in views.decisions(REMOTE, project=None, domain=None, include_history=True, limit=10)] == [
            shared
        ]
        assert len(views.decisions(OWNER, project=None, domain=None, include_history=True, limit=1)) == 1


def test_unresolved_items_soonest_due_first_and_undated_last(store: Store) -> None:
    later = _add(store, "Book the chimney sweep", type="NEXT_ACTION", due_at="2026-12-20T09:00:00Z")
    sooner = _add(store, "Renew the parking permit", type="NEXT_ACTION", now=T2, due_at="2026-12-10T09:00:00Z")
    undated = _add(store, "Which paint suits the hall?", type="OPEN_QUESTION", now=T3, domain="hall")
    _add(store, "The hall is 4 metres long", now=T3, domain="hall")
    with store.read_snapshot() as reading:
        views = reading.views
        assert [m.id for m in views.unresolved(OWNER, project=None, domain=None, due_before=None, limit=10)] == [
            sooner,
            later,
            undated,
        ]
        due = views.unresolved(OWNER, project=None, domain=None, due_before="2026-12-15T00:00:00Z", limit=10)
        assert [m.id for m in due] == [sooner]
        assert [m.id for m in views.unresolved(OWNER, project=None, domain="hall", due_before=None, limit=10)] == [
            undated
        ]
        assert views.unresolved(REMOTE, project=None, domain=None, due_before=None, limit=10) == []
    with store.write_transaction() as writing:
        writing.record_kinds.close_unresolved(sooner, LATER)
        writing.memories.update(later, LATER, status="archived", archived_reason="done")
    with store.read_snapshot() as reading:
        assert [
            m.id for m in reading.views.unresolved(OWNER, project=None, domain=None, due_before=None, limit=10)
        ] == [undated]


def test_a_project_by_its_tag_its_record_its_links_and_its_entity(store: Store) -> None:
    anchor = _add(store, "Atlas: the attic conversion", type="PROJECT", tags=["project:Atlas"])
    state = _add(
        store, "Atlas is waiting for planning permission", type="PROJECT_STATE", now=T2, tags=["project:Atlas"]
    )
    member = _add(store, "The Atlas architect is Odile Marchetti", now=T3, tags=["project:Atlas"])
    linked = _add(store, "The skylight order was placed", now=T4)
    _add(store, "The garden path needs weeding", now=T4)
    with store.write_transaction() as writing:
        writing.memories.add_link(linked, anchor, "part_of_project", T4)
    with store.read_snapshot() as reading:
        views = reading.views
        key = views.project_key(OWNER, "Atlas", "atlas")
        assert key is not None and key.name == "Atlas" and key.project_id and key.entity_id is None
        assert key.anchors == (anchor,)
        assert views.project_records(OWNER, key) == 4  # tagged, or linked to its PROJECT record
        assert [m.id for m in views.project_states(OWNER, key)] == [anchor, state]
        by_record = views.project_key(OWNER, anchor, "")
        assert by_record is not None and by_record.project_id == key.project_id and by_record.anchors == (anchor,)
        assert views.project_key(OWNER, "Zephyr", "zephyr") is None
        assert views.project_key(REMOTE, "Atlas", "atlas") == ProjectKey("Atlas", key.project_id, (), None)
        assert views.project_records(REMOTE, key) == 0
        assert views.project_records(OWNER, ProjectKey("nothing")) == 0
    assert member


def test_a_project_known_by_its_entity_alone(store: Store) -> None:
    anchor = _add(store, "Restoring the Lighthouse", type="PROJECT", entities=["Lighthouse Restoration"])
    note = _add(store, "The lamp room glass is cracked", now=T2, entities=["Lighthouse Restoration"])
    with store.read_snapshot() as reading:
        views = reading.views
        key = views.project_key(OWNER, "Lighthouse Restoration", "lighthouse restoration")
        assert key is not None and key.project_id is None and key.entity_id and key.anchors == (anchor,)
        assert views.project_records(OWNER, key) == 2
        assert [m.id for m in views.project_states(OWNER, key)] == [anchor]
        by_record = views.project_key(OWNER, anchor, "")
        assert by_record == key
    assert note


def test_links_touching_records_with_both_ends_visible(store: Store) -> None:
    boiler = _add(store, "The boiler is a Vantor 30", scope="remote_allowed")
    service = _add(store, "The boiler service is in October", now=T2, scope="remote_allowed")
    private = _add(store, "The boiler engineer's number is in my phone", now=T3)
    old = _add(store, "The old boiler was a Kelsall", now=T4, scope="remote_allowed")
    with store.write_transaction() as writing:
        writing.memories.add_link(service, boiler, "depends_on", T2, weight=0.5)
        writing.memories.add_link(private, boiler, "relates_to", T3)
        writing.memories.add_link(old, boiler, "relates_to", T4)
        writing.memories.update(old, LATER, status="archived", archived_reason="replaced")
    with store.read_snapshot() as reading:
        views = reading.views
        edges = views.links_touching(OWNER, [boiler], [])
        assert edges == [
            {"from": private, "to": boiler, "type": "relates_to", "weight": 1.0},
            {"from": service, "to": boiler, "type": "depends_on", "weight": 0.5},
        ]
        assert views.links_touching(OWNER, [boiler], ["depends_on"]) == edges[1:]
        assert views.links_touching(REMOTE, [boiler, service], []) == edges[1:]
        assert views.links_touching(OWNER, [], []) == []


def test_feedback_is_counted_per_record(store: Store) -> None:
    tip = _add(store, "The bread maker needs 450 g of flour")
    with store.write_transaction() as writing:
        first = writing.views.add_feedback(tip, True, REMOTE.principal, "helpful", T2)
        second = writing.views.add_feedback(tip, False, OWNER.principal, None, T3)
    assert 0 < first < second
    with store.read_snapshot() as reading:
        assert reading.search.feedback_balance([tip], frozenset({"feedback"})) == {tip: (1, 1)}


# -- neighbours --------------------------------------------------------------------------------------


def test_the_turns_written_beside_a_record_in_one_session(store: Store) -> None:
    session = {"event_time": "2026-11-30T09:00:00Z", "source": "chat-export"}
    ask = _add(store, "Rowan: where did we leave the tent pegs?", **session)
    answer = _add(store, "Imke: in the blue crate in the loft", **session)
    thanks = _add(store, "Rowan: found them, thanks", **session)
    elsewhere = _add(store, "Rowan: the train leaves at nine", event_time="2026-11-30T18:00:00Z", source="chat-export")
    note = _add(store, "The tent sleeps four")
    untimed = _add(store, "The tent poles are aluminium")
    with store.read_snapshot() as reading:
        beside = reading.neighbours.written_beside
        assert sorted(beside([answer])) == sorted([(answer, ask), (answer, thanks)])
        assert beside([ask]) == [(ask, answer)]
        assert beside([thanks]) == [(thanks, answer)]  # the next turn is of another session
        assert beside([elsewhere, note, untimed]) == []  # no event time: no session
        assert beside([]) == []
