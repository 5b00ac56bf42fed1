"""Slot fillers for the import evaluation's conversation templates, written apart from the templates.

Every person, company, practice and project here is invented. Places and products (cities, hosting
platforms, editors, databases) are real names: they are no one's personal data, and people name them.

A template names a slot as `{slot}`. Slots ending in `_old`, `_new` or a digit draw another value of
the same list (`{host_old}` and `{host_new}` are two different platforms). `value(slot, lang, rng,
taken)` answers one value: from the language's own list when it has one, else from the shared list.
"""

from __future__ import annotations

import random
import re

SHARED: dict[str, list[str]] = {
    "project": [
        "Larkspur",
        "Tidewell",
        "Halyard",
        "Bramblecote",
        "Nimbus Post",
        "Saffron",
        "Quillfeather",
        "Orchid Loop",
        "Ferrywood",
        "Kettlebrook",
        "Moraine",
        "Pipistrelle",
    ],
    "host": ["Heroku", "Fly.io", "Render", "Railway", "Hetzner", "DigitalOcean", "Vercel", "Netlify"],
    "ci": ["Jenkins", "GitHub Actions", "GitLab CI", "CircleCI", "Buildkite", "Drone"],
    "db": ["Postgres", "MySQL", "SQLite", "DuckDB", "MongoDB", "MariaDB"],
    "editor": ["Vim", "Helix", "VS Code", "Zed", "Emacs", "Sublime Text", "IntelliJ"],
    "company": [
        "Brightwater Analytics",
        "Kestrel Freight",
        "Harbor & Finch",
        "Tallow Systems",
        "Quillon Labs",
        "Copperleaf Studio",
        "Marrow & Vine",
        "Steadfast Mutual",
        "Lowmoor Energy",
        "Pellucid Games",
    ],
    "secret_wifi": ["Tulpe-8842-blau", "k7mPq29xzWv", "sunfish!Ridge44", "Moss_lantern_913", "8yT-kQ3e-Zr"],
    "secret_code": ["4719", "8832", "2046", "6195", "3570"],
    "flight": ["LH 1187", "AF 1634", "IB 3412", "BA 2791", "KL 1023"],
    "minutes": ["55", "70", "80", "45", "65"],
    "time": ["10:30", "8:15", "14:45", "9:40", "16:20"],
}

LOCAL: dict[str, dict[str, list[str]]] = {
    "en": {
        "date": ["March 14", "April 3rd", "May 22", "June 9", "September 17", "October 2nd", "November 26"],
        "date2": ["March 19", "April 8th", "May 27", "June 14", "September 21", "October 7th", "November 30"],
        "month": ["September", "October", "January", "March", "June", "August"],
        "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
        "practice": ["Brookside Dental", "Parkview Dental Care", "Dr. Okonjo's practice", "Elm Street Dental"],
        "role": ["product designer", "data engineer", "QA lead", "support manager", "solutions architect"],
        "city": ["Lisbon", "Leeds", "Rotterdam", "Portland", "Edinburgh", "Tallinn", "Porto"],
        "place": ["Loon Lake", "Hollow Pine", "Bracken Point", "Otter Bay"],
        "person": ["Priya", "Tomasz", "Dana", "Malik", "Greta", "Osei"],
        "child": ["Juniper", "Milo", "Ada", "Rowan"],
        "amount": ["$18,000", "$25,000", "$12,500", "$30,000"],
        "skill": ["pottery", "Italian", "woodworking", "bouldering"],
    },
    "de": {
        "date": ["14. März", "3. April", "22. Mai", "9. Juni", "17. September", "2. Oktober", "26. November"],
        "date2": ["19. März", "8. April", "27. Mai", "14. Juni", "21. September", "7. Oktober", "30. November"],
        "month": ["September", "Oktober", "Januar", "März", "Juni", "August"],
        "day": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag"],
        "practice": [
            "Praxis Dr. Halbig",
            "Zahnarztpraxis am Lindenplatz",
            "Praxis Dr. Wendrich",
            "Zahnzentrum Mühlbach",
        ],
        "role": ["Projektleiterin", "Backend-Entwickler", "Teamleiter Support", "Produktmanagerin", "Datenanalyst"],
        "city": ["Leipzig", "Freiburg", "Bremen", "Graz", "Münster", "Kassel"],
        "place": ["Bodensee", "Ammersee", "Chiemsee", "Spreewald"],
        "person": ["Jonas", "Birte", "Kerstin", "Lennart", "Ulrike", "Sönke"],
        "child": ["Ole", "Mia", "Frieda", "Jannik"],
        "amount": ["12.000", "18.500", "9.000", "25.000"],
        "skill": ["Töpfern", "Italienisch", "Bouldern", "Gitarre"],
    },
    "fr": {
        "date": ["14 mars", "3 avril", "22 mai", "9 juin", "17 septembre", "2 octobre", "26 novembre"],
        "date2": ["19 mars", "8 avril", "27 mai", "14 juin", "21 septembre", "7 octobre", "30 novembre"],
        "month": ["septembre", "octobre", "janvier", "mars", "juin", "août"],
        "day": ["lundi", "mardi", "mercredi", "jeudi", "vendredi"],
        "practice": [
            "cabinet du Dr Morvan",
            "centre dentaire des Tilleuls",
            "cabinet Lefranc-Aubry",
            "cabinet du Dr Sailly",
        ],
        "role": ["cheffe de projet", "développeur backend", "responsable support", "comptable", "designer produit"],
        "city": ["Lyon", "Nantes", "Montpellier", "Lille", "Rennes", "Annecy"],
        "place": ["l'île de Ré", "Étretat", "Collioure", "Gérardmer"],
        "person": ["Margaux", "Bastien", "Inès", "Théo", "Solène", "Yanis"],
        "child": ["Lou", "Gaspard", "Anouk", "Elio"],
        "amount": ["15 000", "8 000", "22 000", "11 500"],
        "skill": ["poterie", "italien", "escalade", "menuiserie"],
        "time": ["10h30", "8h15", "14h45", "9h40", "16h20"],
    },
    "es": {
        "date": ["14 de marzo", "3 de abril", "22 de mayo", "9 de junio", "17 de septiembre", "2 de octubre"],
        "date2": ["19 de marzo", "8 de abril", "27 de mayo", "14 de junio", "21 de septiembre", "7 de octubre"],
        "month": ["septiembre", "octubre", "enero", "marzo", "junio", "agosto"],
        "day": ["lunes", "martes", "miércoles", "jueves", "viernes"],
        "practice": ["Clínica Dental Arroyo", "la consulta de la doctora Ibarra", "Clínica Dental Sotomayor"],
        "role": [
            "jefa de proyecto",
            "desarrollador backend",
            "responsable de soporte",
            "contable",
            "diseñadora de producto",
        ],
        "city": ["Valencia", "Bilbao", "Zaragoza", "Málaga", "Granada", "Oviedo"],
        "place": ["Cadaqués", "Comillas", "Nerja", "Albarracín"],
        "person": ["Lucía", "Íñigo", "Marisol", "Andrés", "Begoña", "Rubén"],
        "child": ["Vega", "Hugo", "Alba", "Nico"],
        "amount": ["12.000", "20.000", "7.500", "15.000"],
        "skill": ["cerámica", "italiano", "escalada", "carpintería"],
    },
}

_DRAW = re.compile(r"^(?P<list>[a-z]+(?:_[a-z]+)*?)(?:_old|_new|\d)?$")


def list_of(slot: str) -> str:
    """The list a slot draws from: `host_old` -> `host`, `date2` -> `date2` (its own list), `person2` -> `person`."""
    if slot in SHARED or any(slot in local for local in LOCAL.values()):
        return slot
    found = _DRAW.match(slot)
    return found.group("list") if found else slot


def value(slot: str, lang: str, rng: random.Random, taken: set[str]) -> str:
    name = list_of(slot)
    choices = LOCAL.get(lang, {}).get(name) or SHARED.get(name)
    if not choices:
        raise KeyError(f"no filler list for slot {slot!r} ({lang})")
    free = [c for c in choices if c not in taken] or list(choices)
    return rng.choice(free)


def paired(slot: str, chosen: str, other: str, lang: str) -> str:
    """The value of list `other` at the place `chosen` has in list `slot` (a stay's end after its start)."""
    first, second = LOCAL[lang][slot], LOCAL[lang][other]
    return second[first.index(chosen) % len(second)]
