"""Build tests/retrieval/eval_set.json: the hand-written corpus plus deterministic filler records.

Run: `.venv/bin/python tests/retrieval/build_eval_set.py` (same output every time: the random
generator is seeded). Fillers are the everyday noise of a real memory (diary-like records in
every domain) that share words and topics with the queries without answering them; none of
them answers a query of the set (their templates avoid the questions' subjects).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from eval_corpus import MEMORIES, QUERIES

OUT = Path(__file__).parent / "eval_set.json"
SEED = 20260301
FILLERS_PER_DOMAIN = 25

FRIENDS = ["Jannik", "Sofia", "Malte", "Aylin", "Ben", "Clara", "Deniz", "Emil", "Frieda", "Gustav"]
CITIES = ["Dresden", "Bremen", "Freiburg", "Görlitz", "Lübeck", "Regensburg", "Kassel", "Weimar", "Trier"]
DISHES = ["shakshuka", "mushroom risotto", "miso ramen", "lentil soup", "falafel", "pad thai", "gnocchi", "dal"]
VERDICTS = ["would make again", "too salty", "needs more garlic", "a bit bland", "great with bread"]
TOPICS = ["data quality", "schema migration", "quarterly planning", "hiring", "cloud costs", "incident review"]
SYSTEMS = ["billing", "meter readings", "forecast", "customer events", "grid sensor"]
ITEMS = ["a lamp", "shelf brackets", "a doormat", "curtains", "a bath mat", "picture frames", "a toolbox"]
ROOMS = ["hallway", "study", "guest room", "living room", "attic"]
SHOPS = ["the DIY store", "the flea market", "an online shop", "the furniture outlet"]
BOOKS = [
    ("The Dispossessed", "Ursula Le Guin"),
    ("Piranesi", "Susanna Clarke"),
    ("The Overstory", "Richard Powers"),
    ("Stoner", "John Williams"),
    ("Kindred", "Octavia Butler"),
    ("The Remains of the Day", "Kazuo Ishiguro"),
]
LECTURES = [
    "graph databases",
    "climate models",
    "medieval trade",
    "urban planning",
    "typography",
    "volcanoes",
    "bird migration",
    "the history of printing",
    "game theory",
    "soil biology",
]
BUGS = ["timezones were ignored", "the CSV header was parsed twice", "a retry loop never ended", "units were mixed up"]
RELATIVES = ["Aunt Birgit", "cousin Jan", "Uncle Rolf", "Grandpa Kurt"]
OBJECTS = ["a glass", "the TV remote", "a plant pot", "my keys"]

TEMPLATES: dict[str, list[str]] = {
    "health": [
        "Walked {n} km with {friend} along the river on {day}",
        "Slept {n} hours on {day} and felt {mood} the next morning",
        "Did the stretching routine after bouldering on {day}",
        "Step count on {day}: {big} steps",
    ],
    "food": [
        "Tried the {dish} recipe from the library cookbook; {verdict}",
        "Lunch with {friend} at a new {dish} place in {city}",
        "Bought fresh herbs at the Saturday market for the {dish}",
    ],
    "work": [
        "Meeting notes: team sync about {topic} on {day}",
        "Pairing session with {friend} on the {system} backfill",
        "Reviewed the design document for the {system} pipeline",
        "Presented the {topic} numbers at the department meeting",
    ],
    "home": [
        "Bought {item} from {shop} for the {room}",
        "Fixed the squeaky door in the {room} on {day}",
        "Moved the bookshelf from the {room} to the {room2}",
    ],
    "car": [
        "Charged the car at a fast charger near {city} on the way to {city2}",
        "Drove {big} km this month, mostly commuting",
        "Topped up the windscreen washer fluid on {day}",
    ],
    "travel": [
        "Weekend trip to {city} with {friend}; stayed in a small guesthouse",
        "Day trip by train to {city} to see the old town",
        "Collected brochures about hiking near {city}",
    ],
    "finance": [
        "Paid the {bill} bill of {n}0 euros on {day}",
        "Moved {n}00 euros from the current account to savings",
        "Sold an old bike on the classifieds for {n}0 euros",
    ],
    "family": [
        "Called {relative} on {day} about the family reunion",
        "{relative} sent photos from the summer holiday",
        "Helped {relative} set up a new phone",
    ],
    "pets": [
        "Pixel knocked {object} off the table on {day}",
        "Pixel slept in the laundry basket all afternoon on {day}",
        "Bought a new scratching post for Pixel from {shop}",
    ],
    "hobbies": [
        "Finished reading {book} by {author}",
        "Went to a concert in {city} with {friend}",
        "Climbed a new purple route at the bouldering gym on {day}",
    ],
    "learning": [
        "Watched a lecture on {lecture}",
        "Read an article about {lecture} and saved it",
        "Took notes on {lecture} for the reading group",
        "Borrowed a library book about {lecture}",
    ],
    "software": [
        "Fixed a bug in the {system} script where {bug}",
        "Updated the home server packages on {day}",
        "Wrote a small shell script to rename photos from {city}",
    ],
}
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
BILLS = ["water", "internet", "phone", "gas"]


def _filler(rng: random.Random, domain: str, template: str) -> str:
    book = rng.choice(BOOKS)
    rooms = rng.sample(ROOMS, 2)
    cities = rng.sample(CITIES, 2)
    return template.format(
        n=rng.randint(2, 9),
        big=rng.randint(2, 14) * 1000,
        friend=rng.choice(FRIENDS),
        day=rng.choice(DAYS),
        mood=rng.choice(["rested", "groggy", "fine"]),
        dish=rng.choice(DISHES),
        verdict=rng.choice(VERDICTS),
        city=cities[0],
        city2=cities[1],
        topic=rng.choice(TOPICS),
        system=rng.choice(SYSTEMS),
        item=rng.choice(ITEMS),
        room=rooms[0],
        room2=rooms[1],
        shop=rng.choice(SHOPS),
        bill=rng.choice(BILLS),
        relative=rng.choice(RELATIVES),
        object=rng.choice(OBJECTS),
        book=book[0],
        author=book[1],
        lecture=rng.choice(LECTURES),
        bug=rng.choice(BUGS),
    )


def fillers() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    out: list[dict[str, Any]] = []
    for domain, templates in TEMPLATES.items():
        seen: set[str] = set()
        for _ in range(FILLERS_PER_DOMAIN * 50):
            if len(seen) == FILLERS_PER_DOMAIN:
                break
            statement = _filler(rng, domain, rng.choice(templates))
            if statement in seen:
                continue
            seen.add(statement)
            out.append(
                {
                    "key": f"x.{domain}.{len(seen)}",
                    "domain": domain,
                    "type": "FACT",
                    "statement": statement,
                    "age": rng.randint(3, 330),
                    "importance": round(rng.uniform(0.2, 0.5), 2),
                    "entities": ["Pixel"] if "Pixel" in statement else [],
                    "scope": "remote_allowed" if rng.random() < 0.3 else "local_only",
                }
            )
    return out


def _age(key: str) -> int:
    return 5 + sum(ord(c) * (i + 1) for i, c in enumerate(key)) % 240


def build() -> dict[str, Any]:
    memories = [
        {"key": key, "domain": domain, "type": type_, "statement": statement, "age": _age(key), **options}
        for key, domain, type_, statement, options in MEMORIES
    ]
    memories += fillers()
    queries = [
        {"query": text, "relevant": relevant, "kind": kind, **options} for text, relevant, kind, options in QUERIES
    ]
    return {"now": "2026-03-01T09:30:00Z", "memories": memories, "queries": queries}


def main() -> None:
    data = build()
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(data['memories'])} memories, {len(data['queries'])} queries -> {OUT}")


if __name__ == "__main__":
    main()
