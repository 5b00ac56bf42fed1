"""Pair frames for change detection: (existing statement, new statement, label), filled from fillers.py.

Labels:

- `SUPERSEDE`: the same subject and attribute with a new value (job, commute, phone, a habit moved to
  another weekday or time, a project's stage, "no longer X; now Y"), or a contradiction (a reversed
  preference, a negated claim). The new statement should replace the old one.
- `DUPLICATE`: the same statement reworded; nothing new to store.
- `ADD`: a different thing that looks alike (another project's report, another person, another time
  of day); both statements hold.

Both statements of a pair are filled from the same values: `{city}` is the same city in each,
`{city2}` a different one. Pure endings without a replacement ("I no longer swim") are left out:
they are neither of the three labels (the writer's ARCHIVE).
"""

from __future__ import annotations

# (label, lang, existing, new)
PAIR_FRAMES: list[tuple[str, str, str, str]] = [
    # ------------------------------------------------------------------ English: SUPERSEDE
    ("SUPERSEDE", "en", "I work at {company} as a {job}.", "I no longer work at {company}; now I work at {company2}."),
    ("SUPERSEDE", "en", "I work at {company}.", "Started a new job at {company2} this month."),
    ("SUPERSEDE", "en", "I commute by {mode}.", "These days I get to work by {mode2}."),
    ("SUPERSEDE", "en", "My phone is a {phone}.", "I switched to a {phone2}."),
    ("SUPERSEDE", "en", "I go swimming on {weekday} mornings.", "I go swimming on {weekday2} mornings now."),
    ("SUPERSEDE", "en", "Standup is at {time}.", "Standup moved to {time2}."),
    ("SUPERSEDE", "en", "{project} is in {stage[a]}.", "{project} is in {stage[b]} now."),
    ("SUPERSEDE", "en", "I prefer {drink} over {drink2}.", "I prefer {drink2} over {drink}."),
    ("SUPERSEDE", "en", "My rent is {rent} a month.", "My rent is now {rent2} a month."),
    ("SUPERSEDE", "en", "I live in {city}.", "I moved to {city2} in {month}."),
    ("SUPERSEDE", "en", "My manager is {name}.", "{name2} is my manager now."),
    ("SUPERSEDE", "en", "I use {editor} for coding.", "I switched from {editor} to {editor2} for coding."),
    ("SUPERSEDE", "en", "The {project} deadline is {date}.", "The {project} deadline moved to {date2}."),
    ("SUPERSEDE", "en", "I do yoga every {weekday} evening.", "Yoga is on {weekday2} evenings from now on."),
    ("SUPERSEDE", "en", "The team meeting is in room {room}.", "The team meeting is in room {room2} now."),
    ("SUPERSEDE", "en", "We host {project} on {host}.", "We migrated {project} from {host} to {host2}."),
    ("SUPERSEDE", "en", "{name} leads the {project} team.", "{name2} took over as lead of the {project} team."),
    ("SUPERSEDE", "en", "{project} supports offline mode.", "{project} does not support offline mode."),
    ("SUPERSEDE", "en", "My car is a {car}.", "I sold the {car} and bought a {car2}."),
    ("SUPERSEDE", "en", "{project} runs on {db}.", "{project} now runs on {db2} instead of {db}."),
    ("SUPERSEDE", "en", "I take the {time} train to work.", "I take the {time2} train to work now."),
    ("SUPERSEDE", "en", "My accountant is {name} {surname}.", "My new accountant is {name2} {surname2}."),
    ("SUPERSEDE", "en", "I like answers as {format}.", "From now on I want answers as {format2}."),
    ("SUPERSEDE", "en", "I'm learning {language}.", "I stopped learning {language} and picked up {language2} instead."),
    ("SUPERSEDE", "en", "My budget for the trip is {price}.", "The trip budget is {price2} now."),
    ("SUPERSEDE", "en", "{name}'s birthday is on {date}.", "Correction: {name}'s birthday is on {date2}."),
    ("SUPERSEDE", "en", "Our office is in {city}.", "We relocated the office from {city} to {city2}."),
    ("SUPERSEDE", "en", "I usually order {fast_food} on Fridays.", "On Fridays I order {fast_food2} now."),
    # ------------------------------------------------------------------ English: DUPLICATE
    ("DUPLICATE", "en", "I work at {company}.", "I'm employed at {company}."),
    ("DUPLICATE", "en", "I prefer {drink} over {drink2}.", "Given the choice I'll take {drink} rather than {drink2}."),
    ("DUPLICATE", "en", "The {project} deadline is {date}.", "{project} is due on {date}."),
    ("DUPLICATE", "en", "I go swimming on {weekday} mornings.", "On {weekday} mornings I go swimming."),
    ("DUPLICATE", "en", "My sister {name_f} lives in {city}.", "{name_f}, my sister, lives in {city}."),
    ("DUPLICATE", "en", "We use {db} for the {project} backend.", "The {project} backend runs on {db}."),
    ("DUPLICATE", "en", "I take the {time} train to work.", "I catch the {time} train to the office."),
    ("DUPLICATE", "en", "{project} is in {stage[b]}.", "{project} is currently in its {stage[b]} phase."),
    ("DUPLICATE", "en", "I can't take calls before {time}.", "No calls before {time} for me."),
    ("DUPLICATE", "en", "My manager is {name}.", "{name} is my manager."),
    ("DUPLICATE", "en", "I live in {city}.", "I'm based in {city}."),
    ("DUPLICATE", "en", "I use {editor} for coding.", "{editor} is the editor I write code in."),
    (
        "DUPLICATE",
        "en",
        "Send the {project} report to {name} by {weekday}.",
        "The {project} report needs to go to {name} by {weekday}.",
    ),
    ("DUPLICATE", "en", "The team meeting is in room {room}.", "We hold the team meeting in room {room}."),
    ("DUPLICATE", "en", "My {pet[n]} is called {pet_name}.", "my {pet[n]} is called {pet_name}!!"),
    ("DUPLICATE", "en", "I'm learning {language}.", "I'm currently studying {language}."),
    ("DUPLICATE", "en", "The {project} repository is on GitLab.", "{project}'s repo is on GitLab."),
    ("DUPLICATE", "en", "I drive a {car}.", "My car is a {car}."),
    ("DUPLICATE", "en", "We deploy {project} on {host}.", "{project} is deployed on {host}."),
    ("DUPLICATE", "en", "My budget for the trip is {price}.", "I can spend {price} on the trip."),
    ("DUPLICATE", "en", "{name} leads the {project} team.", "The {project} team is led by {name}."),
    ("DUPLICATE", "en", "I commute by {mode}.", "I get to work by {mode}."),
    # ------------------------------------------------------------------ English: ADD
    ("ADD", "en", "Send the {project} report by Friday.", "Send the {project2} report by Friday."),
    ("ADD", "en", "My sister {name_f} lives in {city}.", "My brother {name_m} lives in {city}."),
    ("ADD", "en", "I go swimming on {weekday} mornings.", "I go running on {weekday} evenings."),
    ("ADD", "en", "I'm learning {language}.", "My partner is learning {language}."),
    ("ADD", "en", "{project} is in {stage[b]}.", "{project2} is in {stage[b]}."),
    ("ADD", "en", "The {project} repo uses Python 3.11.", "The {project2} repo uses Python 3.11."),
    ("ADD", "en", "I drink {drink} in the morning.", "I drink {drink2} in the evening."),
    ("ADD", "en", "The {project} deadline is {date}.", "The {project} budget is {price}."),
    ("ADD", "en", "I work at {company}.", "My partner works at {company2}."),
    ("ADD", "en", "We have {pet[a]} called {pet_name}.", "Our neighbours have {pet[a]} called {pet_name2}."),
    ("ADD", "en", "We host {project} on {host}.", "We host the {project} docs site on {host2}."),
    ("ADD", "en", "My manager is {name}.", "{name}'s manager is {name2}."),
    ("ADD", "en", "The team meeting is in room {room}.", "The design review is in room {room2}."),
    ("ADD", "en", "I live in {city}.", "I'm reading {book_about}."),
    ("ADD", "en", "I take the {time} train to work.", "I take the {time2} train back home."),
    (
        "ADD",
        "en",
        "Call {name} on {weekday} about the {project} contract.",
        "Call {name2} on {weekday} about the {project} contract.",
    ),
    ("ADD", "en", "{name} leads the {project} team.", "{name2} is on the {project} team."),
    ("ADD", "en", "The {project} deadline is {date}.", "The {project2} deadline is {date}."),
    ("ADD", "en", "My phone is a {phone}.", "My partner's phone is a {phone2}."),
    ("ADD", "en", "I use {editor} for coding.", "I use {editor2} for writing prose."),
    ("ADD", "en", "I prefer {drink} over {drink2}.", "My partner prefers {drink} over {drink2}."),
    ("ADD", "en", "I do yoga every {weekday} evening.", "I do pilates every {weekday2} morning."),
    # ------------------------------------------------------------------ German
    ("SUPERSEDE", "de", "Ich arbeite bei {company}.", "Ich arbeite nicht mehr bei {company}, sondern bei {company2}."),
    ("SUPERSEDE", "de", "Ich fahre {mode} zur Arbeit.", "Ich fahre jetzt {mode2} zur Arbeit."),
    ("SUPERSEDE", "de", "Schwimmen gehe ich immer am {weekday}.", "Schwimmen ist jetzt immer am {weekday2}."),
    ("SUPERSEDE", "de", "{project} ist in der {stage[a]}-Phase.", "{project} ist jetzt in der {stage[b]}-Phase."),
    ("DUPLICATE", "de", "Ich wohne in {city}.", "Mein Wohnort ist {city}."),
    ("DUPLICATE", "de", "Die Deadline für {project} ist der {date}.", "{project} muss bis zum {date} fertig sein."),
    ("DUPLICATE", "de", "Mein Chef heißt {name_m}.", "{name_m} ist mein Chef."),
    ("ADD", "de", "Den {project}-Bericht bis Freitag schicken.", "Den {project2}-Bericht bis Freitag schicken."),
    ("ADD", "de", "Meine Schwester {name_f} wohnt in {city}.", "Mein Bruder {name_m} wohnt in {city}."),
    ("ADD", "de", "Ich lerne {language}.", "Mein Partner lernt {language}."),
    # ------------------------------------------------------------------ French
    (
        "SUPERSEDE",
        "fr",
        "Je travaille chez {company}.",
        "Je ne travaille plus chez {company}, maintenant je suis chez {company2}.",
    ),
    ("SUPERSEDE", "fr", "Je vais au travail {mode}.", "Maintenant je vais au travail {mode2}."),
    (
        "SUPERSEDE",
        "fr",
        "La réunion d'équipe est le {weekday} à {time}.",
        "La réunion d'équipe a été déplacée au {weekday2} à {time}.",
    ),
    ("SUPERSEDE", "fr", "{project} est en {stage[a]}.", "{project} est passé en {stage[b]}."),
    ("DUPLICATE", "fr", "J'habite à {city}.", "Je vis à {city}."),
    ("DUPLICATE", "fr", "La date limite de {project} est le {date}.", "{project} doit être rendu le {date}."),
    ("DUPLICATE", "fr", "Ma responsable c'est {name_f}.", "{name_f} est ma responsable."),
    ("ADD", "fr", "Envoyer le rapport {project} avant vendredi.", "Envoyer le rapport {project2} avant vendredi."),
    ("ADD", "fr", "Ma sœur {name_f} habite à {city}.", "Mon frère {name_m} habite à {city}."),
    ("ADD", "fr", "J'apprends {language}.", "Mon conjoint apprend {language}."),
    # ------------------------------------------------------------------ Spanish
    ("SUPERSEDE", "es", "Trabajo en {company}.", "Ya no trabajo en {company}, ahora estoy en {company2}."),
    ("SUPERSEDE", "es", "Voy al trabajo {mode}.", "Ahora voy al trabajo {mode2}."),
    ("SUPERSEDE", "es", "Voy a natación cada {weekday}.", "Ahora voy a natación cada {weekday2}."),
    ("SUPERSEDE", "es", "{project} está en {stage[a]}.", "{project} ya está en {stage[b]}."),
    ("DUPLICATE", "es", "Vivo en {city}.", "Resido en {city}."),
    ("DUPLICATE", "es", "La fecha límite de {project} es {date}.", "{project} se entrega {date}."),
    ("DUPLICATE", "es", "Mi jefa es {name_f}.", "{name_f} es mi jefa."),
    (
        "ADD",
        "es",
        "Enviar el informe de {project} antes del viernes.",
        "Enviar el informe de {project2} antes del viernes.",
    ),
    ("ADD", "es", "Mi hermana {name_f} vive en {city}.", "Mi hermano {name_m} vive en {city}."),
    ("ADD", "es", "Estoy aprendiendo {language}.", "Mi pareja está aprendiendo {language}."),
]


def pair_frames() -> list[tuple[str, str, str, str, str]]:
    """(pair template id, label, lang, existing, new); ids by position within language and label."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for label, lang, old, new in PAIR_FRAMES:
        n = seen[(lang, label)] = seen.get((lang, label), 0) + 1
        out.append((f"{lang}-pair-{label[:3].lower()}-{n:02d}", label, lang, old, new))
    return out
