"""Conversation templates for the import evaluation: how people talk to assistants, with what is worth keeping.

Each template is a short conversation (the person's turns `U`, the assistant's `A`, and `X`: a turn
the person wrote and then edited away, with the reply it got: in a ChatGPT export it stays on an
abandoned branch; the other formats do not keep it). Slots are `{slot}` (fillers.py). `expect`
lists the memories a careful reader would keep from the *person's* words:

- `gist`: what is remembered (documentation; the match is by `keys`);
- `type`: the memory type it should get; `also`: other types that are as right for it;
- `keys`: slots (or literal words) whose text must all be in an extracted statement for it to
  count as this memory;
- `change`: said as a change of an earlier fact; `prior` is that earlier fact, which the
  evaluation stores first: the import must make the new statement a correction of it.

Written from how people type to assistants (lower case, asides, a request in the same breath,
half sentences), from the contract's memory types, not from the importer's rules. Templates with
`expect=()` hold nothing durable: everything extracted from them is a false positive.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Turn:
    role: str  # user | assistant | abandoned (a user turn edited away)
    text: str
    reply: str = ""  # for an abandoned turn: the assistant's answer on that branch


@dataclass(frozen=True)
class Expect:
    gist: str
    type: str
    keys: tuple[str, ...]
    also: tuple[str, ...] = ()
    change: bool = False
    prior: str | None = None


@dataclass(frozen=True)
class Template:
    id: str
    lang: str
    formats: tuple[str, ...]  # CODE: a coding session (Codex first); others take the three formats in turn
    title: str
    turns: tuple[Turn, ...]
    expect: tuple[Expect, ...]


def U(text: str) -> Turn:
    return Turn("user", text)


def A(text: str) -> Turn:
    return Turn("assistant", text)


def X(text: str, reply: str) -> Turn:
    return Turn("abandoned", text, reply)


CHAT = ("chatgpt", "claude", "codex")
CODE = ("codex", "chatgpt")

TEMPLATES: tuple[Template, ...] = (
    # -- English ---------------------------------------------------------------------------------
    Template(
        "en-dentist-remind",
        "en",
        CHAT,
        "Message to boss about leaving early",
        (
            U(
                "Remind me: my next dentist appointment is on {date} at {time} at {practice}. can you draft a short "
                "message to {person} asking if I can leave early that day?"
            ),
            A(
                "Of course! Here's a draft:\n\nHi {person}, I have a dentist appointment on {date} at {time}. Would it "
                "be okay if I left a bit early that day? I'll make sure everything is covered. Thanks!"
            ),
            U("make it a bit less formal pls"),
            A("Hey {person}, quick one: I've got the dentist on {date} at {time}, ok if I head out early that day?"),
            U("perfect thx"),
        ),
        (Expect("dentist appointment on {date} at {time}, {practice}", "NEXT_ACTION", ("date", "practice")),),
    ),
    Template(
        "en-deploy-from-now-on",
        "en",
        CODE,
        "Deploy workflow",
        (
            U(
                "For {project} we deploy to {host_new} from now on, not {host_old}. Can you rewrite the deploy job in "
                ".github/workflows/deploy.yml for that?"
            ),
            A(
                "Sure. Here's a deploy job for {host_new}:\n\n```yaml\ndeploy:\n  runs-on: ubuntu-latest\n  steps:\n"
                "    - uses: actions/checkout@v4\n    - run: ./scripts/deploy.sh\n```\nYou'll need an API token "
                "stored as a repository secret."
            ),
            U("it fails with `Error: app not found`. the app is called {project}-web btw"),
            A("The app name isn't set. Pass it explicitly in the deploy step."),
            U("that was it, thanks!"),
        ),
        (
            Expect(
                "{project} deploys to {host_new} (not {host_old}) from now on",
                "DECISION",
                ("project", "host_new"),
                change=True,
                prior="{project} is deployed to {host_old}.",
            ),
        ),
    ),
    Template(
        "en-job-no-longer",
        "en",
        CHAT,
        "LinkedIn summary",
        (
            U(
                "quick update on me: I no longer work at {company_old}; now I work at {company_new} as a {role}. Can "
                "you help me rewrite my LinkedIn summary?"
            ),
            A("Congratulations on the new role! Could you tell me a bit about what you do at {company_new}?"),
            U("mostly roadmap stuff and talking to customers. keep it short, no buzzwords"),
            A("{role} at {company_new}. I shape the roadmap with the people who use it."),
        ),
        (
            Expect(
                "works at {company_new} as a {role} (no longer at {company_old})",
                "FACT",
                ("company_new",),
                change=True,
                prior="I work at {company_old}.",
            ),
        ),
    ),
    Template(
        "en-standup-moved",
        "en",
        CHAT,
        "Message to contractors",
        (
            U(
                "heads up, the team standup moved from {day_old} to {day_new}, same time ({time}). can you write a "
                "two-line message for the contractors?"
            ),
            A(
                "Hi all, a quick note: from now on our standup is on {day_new} at {time} instead of {day_old}. "
                "See you there!"
            ),
            U("great"),
        ),
        (
            Expect(
                "team standup is on {day_new} at {time} (moved from {day_old})",
                "FACT",
                ("day_new",),
                also=("DECISION", "WORKFLOW"),
                change=True,
                prior="Our team standup is on {day_old} at {time}.",
            ),
        ),
    ),
    Template(
        "en-dinner-diet",
        "en",
        CHAT,
        "Saturday dinner",
        (
            U(
                "planning dinner for saturday. I'm vegetarian and {person} can't have gluten, so something that works "
                "for both of us? under an hour ideally"
            ),
            A("How about a mushroom risotto, a chickpea curry with rice, or stuffed peppers with quinoa?"),
            U("the risotto sounds good. what wine goes with it?"),
            A("A dry white such as a Pinot Grigio works well with mushroom risotto."),
            U("ok lovely, thank you"),
        ),
        (
            Expect("is vegetarian", "FACT", ("vegetarian",), also=("CONSTRAINT", "PREFERENCE")),
            Expect("{person} can't have gluten", "CONSTRAINT", ("person", "gluten"), also=("FACT",)),
        ),
    ),
    Template(
        "en-repo-pnpm",
        "en",
        CODE,
        "Date parser tests",
        (
            U(
                "In this repo we use pnpm, not npm, so please don't add a package-lock.json. Add a vitest test for "
                "parseDate in src/utils/date.ts"
            ),
            A("I've added src/utils/date.test.ts with cases for ISO dates, empty input and time zones."),
            U("also never run the e2e suite locally, it hits the staging database."),
            A("Understood. I ran only the unit tests: 14 passed."),
            U("nice. commit it"),
        ),
        (
            Expect("the repo uses pnpm, not npm", "CONSTRAINT", ("pnpm",), also=("DECISION", "FACT")),
            Expect("never run the e2e suite locally (it hits staging)", "CONSTRAINT", ("e2e",)),
        ),
    ),
    Template(
        "en-db-edited",
        "en",
        CODE,
        "Schema sketch",
        (
            X(
                "We're going with {db_old} for the {project} backend. Can you sketch the schema for users and "
                "invoices?",
                "Here's a {db_old} schema with a users table and an invoices table.",
            ),
            U(
                "We're going with {db_new} for the {project} backend, it's a single-user desktop app after all. Can "
                "you sketch the schema for users and invoices?"
            ),
            A(
                "Here's a {db_new} schema:\n\n```sql\nCREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);\n"
                "CREATE TABLE invoices (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id));\n```"
            ),
            U("add a due date column to invoices"),
        ),
        (Expect("{project} backend uses {db_new}", "DECISION", ("project", "db_new")),),
    ),
    Template(
        "en-cabin-wifi",
        "en",
        CHAT,
        "Welcome card for guests",
        (
            U(
                "We rent the same cabin at {place} every August. The wifi password there is {secret_wifi}, can you "
                "make a printable welcome card for our guests with it?"
            ),
            A("Here's a welcome card: Welcome to {place}! Wifi: see below. Checkout is at 10."),
            U("lol perfect"),
        ),
        (Expect("rents the same cabin at {place} every August", "FACT", ("place",), also=("WORKFLOW",)),),
    ),
    Template(
        "en-kitchen-budget",
        "en",
        CHAT,
        "Kitchen renovation",
        (
            U(
                "We're redoing the kitchen. Budget is {amount} max, and the work has to be finished before {month} "
                "because that's when the baby is due."
            ),
            A(
                "Congratulations! With that budget and timeline, I'd lock in the cabinet order first: lead times are "
                "often 6 to 8 weeks."
            ),
            U("what should we prioritise, cabinets or countertops?"),
            A("Cabinets: countertops are templated after they're installed."),
        ),
        (
            Expect("kitchen budget is {amount} max", "CONSTRAINT", ("amount",)),
            Expect("kitchen work finished before {month}", "CONSTRAINT", ("month",), also=("NEXT_ACTION", "GOAL")),
        ),
    ),
    Template(
        "en-offer-undecided",
        "en",
        CHAT,
        "Pros and cons of an offer",
        (
            U(
                "I got an offer from {company_new}. Still haven't decided whether to take it, the commute would be "
                "{minutes} minutes each way. can you help me list pros and cons?"
            ),
            A("Sure. Pros: ... Cons: a {minutes}-minute commute each way adds up to several hours a week."),
            U("hmm. what would you ask them before deciding?"),
            A("Ask about remote days, the team you'd join and how performance is reviewed."),
        ),
        (Expect("undecided whether to take the offer from {company_new}", "OPEN_QUESTION", ("company_new",)),),
    ),
    Template(
        "en-answers-editor",
        "en",
        CHAT,
        "Editor plugins",
        (
            U("Honestly I prefer short answers with bullet points, I mostly read this on my phone."),
            A("Got it: short answers with bullet points."),
            U(
                "Also please stop suggesting {editor_old} plugins, I switched to {editor_new} last year. what's a good "
                "way to get fuzzy file search there?"
            ),
            A("- Use the built-in file picker\n- Bind it to a key you like"),
        ),
        (
            Expect("prefers short answers with bullet points", "PREFERENCE", ("bullet",)),
            Expect(
                "uses {editor_new} (switched from {editor_old})",
                "FACT",
                ("editor_new",),
                also=("PREFERENCE",),
                change=True,
                prior="I use {editor_old} for editing.",
            ),
        ),
    ),
    Template(
        "en-moving-city",
        "en",
        CHAT,
        "Moving checklist",
        (
            U(
                "We're moving to {city} in {month}. I need to find a new GP and a daycare for {child} before then, "
                "where do I even start?"
            ),
            A("Start with the daycare: waiting lists can be long. For a GP, register as soon as you have an address."),
            U("ok. and what about my car insurance?"),
            A("Tell your insurer about the new address before the move."),
        ),
        (
            Expect("moving to {city} in {month}", "NEXT_ACTION", ("city", "month"), also=("FACT", "GOAL")),
            Expect("needs to find a new GP and a daycare for {child} before the move", "NEXT_ACTION", ("daycare",)),
        ),
    ),
    Template(
        "en-flight",
        "en",
        CHAT,
        "Packing list",
        (
            U(
                "Flight to {city} is on {date}, {flight}, leaves at {time}. can you make me a packing list for 4 days "
                "of client meetings?"
            ),
            A("Here's a packing list: 2 suits, 4 shirts, chargers, the presentation on a USB stick..."),
            U("add the {project} demo laptop"),
            A("Added: the {project} demo laptop and its charger."),
        ),
        (Expect("flight to {city} on {date} at {time} ({flight})", "NEXT_ACTION", ("city", "date")),),
    ),
    Template(
        "en-no-friday-deploys",
        "en",
        CODE,
        "Release script check",
        (
            U("Team rule: no deploys on Fridays after {time}. can you add a check for that to scripts/release.sh?"),
            A("Added a guard at the top of scripts/release.sh that exits when it's Friday after {time}."),
            U("use the Europe/Berlin time zone for it"),
            A("Done: the check uses TZ=Europe/Berlin."),
        ),
        (Expect("no deploys on Fridays after {time}", "CONSTRAINT", ("friday",)),),
    ),
    Template(
        "en-nothing-durable",
        "en",
        CHAT,
        "Monads",
        (
            U("can you explain what a monad is like I'm five"),
            A("Imagine a box that holds a value, and a rule for chaining boxes together..."),
            U("haha ok. what about in python?"),
            A("Python has no built-in monads, but you can write a Maybe class with a bind method."),
            U("thx, that helps"),
        ),
        (),
    ),
    Template(
        "en-what-if",
        "en",
        CODE,
        "Hypotheticals",
        (
            U("What if we rewrote the {project} backend in Go? would it actually be faster?"),
            A("For I/O-bound services, the difference is often small; measure first."),
            U("If I ever move the database to {db_new}, do I need to change the ORM?"),
            A("Most ORMs support it, but migrations may need changes."),
            U("ok, not now anyway. can you explain the connection pool settings in config/db.py?"),
        ),
        (),
    ),
    Template(
        "en-grant-deadline",
        "en",
        CHAT,
        "Grant report",
        (
            U(
                "The {project} grant report is due {date}, and I have to send a draft to {person} a week before that. "
                "Can you give me an outline?"
            ),
            A("Outline: 1. Summary 2. Progress against milestones 3. Budget 4. Next steps."),
            U("shorter section titles please"),
        ),
        (
            Expect("{project} grant report due {date}", "NEXT_ACTION", ("project", "date"), also=("CONSTRAINT",)),
            Expect("send the draft to {person} a week before", "NEXT_ACTION", ("person",)),
        ),
    ),
    # -- German ----------------------------------------------------------------------------------
    Template(
        "de-job-nicht-mehr",
        "de",
        CHAT,
        "Profiltext",
        (
            U(
                "Kleines Update: Ich arbeite nicht mehr bei {company_old}, seit {month} bin ich als {role} bei "
                "{company_new}. Kannst du mir helfen, meinen Profiltext anzupassen?"
            ),
            A("Gern! Was machst du bei {company_new} genau?"),
            U("hauptsächlich Planung und Abstimmung mit Kunden. bitte kurz halten"),
            A("{role} bei {company_new}: Planung und Kundenabstimmung."),
        ),
        (
            Expect(
                "arbeitet jetzt bei {company_new} als {role}",
                "FACT",
                ("company_new",),
                change=True,
                prior="Ich arbeite bei {company_old}.",
            ),
        ),
    ),
    Template(
        "de-zahnarzt",
        "de",
        CHAT,
        "Mail an den Chef",
        (
            U(
                "Erinnere mich bitte: Zahnarzttermin am {date} um {time} in der {practice}. Kannst du mir eine kurze "
                "Mail an {person} schreiben, dass ich an dem Tag später komme?"
            ),
            A(
                "Hallo {person}, am {date} habe ich um {time} einen Zahnarzttermin und komme deshalb etwas später. "
                "Viele Grüße"
            ),
            U("super, danke"),
        ),
        (Expect("Zahnarzttermin am {date} um {time}, {practice}", "NEXT_ACTION", ("date", "practice")),),
    ),
    Template(
        "de-hosting-beschluss",
        "de",
        CODE,
        "Datenbankmigration",
        (
            U(
                "Wir haben beschlossen, {project} ab sofort auf {host_new} zu betreiben statt auf {host_old}. Was muss "
                "ich bei der Migration der Datenbank beachten?"
            ),
            A("Plane ein Wartungsfenster, erstelle ein Backup und teste die Wiederherstellung auf {host_new}."),
            U("wie lange dauert so ein restore bei 20 GB ungefähr?"),
            A("Grob 10 bis 30 Minuten, je nach Netzwerk und Festplatten."),
        ),
        (
            Expect(
                "{project} läuft ab sofort auf {host_new} statt {host_old}",
                "DECISION",
                ("project", "host_new"),
                change=True,
                prior="{project} läuft auf {host_old}.",
            ),
        ),
    ),
    Template(
        "de-sprache-tee",
        "de",
        CHAT,
        "Rezeptideen",
        (
            U("Bitte antworte mir immer auf Deutsch, auch wenn ich mal englische Begriffe benutze."),
            A("Alles klar, ich antworte auf Deutsch."),
            U(
                "Und ich trinke lieber Tee als Kaffee, also schlag mir bitte keine Kaffeerezepte mehr vor. Hast du "
                "eine Idee für einen Wintertee?"
            ),
            A("Wie wäre es mit Ingwer, Zimt, Orangenschale und etwas Honig?"),
        ),
        (
            Expect("antwortet immer auf Deutsch", "PREFERENCE", ("deutsch",), also=("CONSTRAINT",)),
            Expect("trinkt lieber Tee als Kaffee", "PREFERENCE", ("tee",)),
        ),
    ),
    Template(
        "de-hochzeit-budget",
        "de",
        CHAT,
        "Hochzeitsplanung",
        (
            U(
                "Für die Hochzeit haben wir ein Budget von {amount} Euro, mehr geht wirklich nicht. Außerdem muss das "
                "Essen komplett vegetarisch sein."
            ),
            A("Verstanden. Soll ich eine Aufteilung des Budgets vorschlagen?"),
            U("ja gerne, für ca. 60 Gäste"),
            A("Location 35 %, Essen und Getränke 30 %, Fotografie 10 %, Rest für Kleidung, Musik und Deko."),
        ),
        (
            Expect("Hochzeitsbudget {amount} Euro, nicht mehr", "CONSTRAINT", ("amount",)),
            Expect("Essen komplett vegetarisch", "CONSTRAINT", ("vegetarisch",), also=("DECISION", "PREFERENCE")),
        ),
    ),
    Template(
        "de-steuer-frist",
        "de",
        CHAT,
        "Steuererklärung",
        (
            U("Ich muss bis {date} meine Steuererklärung abgeben. Welche Belege brauche ich als Freiberuflerin?"),
            A("Rechnungen, Kontoauszüge, Belege für Arbeitsmittel und Fahrtkosten, und die Krankenversicherung."),
            U("und wie lange muss ich die aufbewahren?"),
            A("In der Regel zehn Jahre."),
        ),
        (Expect("Steuererklärung bis {date} abgeben", "NEXT_ACTION", ("date", "steuererkl")),),
    ),
    Template(
        "de-jour-fixe",
        "de",
        CHAT,
        "Einladung",
        (
            U(
                "Unser Jour fixe ist jetzt immer am {day_new} statt am {day_old}. Schreib mir bitte eine kurze "
                "Einladung fürs Team."
            ),
            A("Liebes Team, ab sofort findet unser Jour fixe am {day_new} statt. Bis dann!"),
            U("passt"),
        ),
        (
            Expect(
                "Jour fixe ist am {day_new} (nicht mehr {day_old})",
                "FACT",
                ("day_new",),
                also=("DECISION",),
                change=True,
                prior="Unser Jour fixe ist am {day_old}.",
            ),
        ),
    ),
    Template(
        "de-nichts",
        "de",
        CHAT,
        "Miete und Pacht",
        (
            U("Was ist eigentlich der Unterschied zwischen Miete und Pacht?"),
            A("Bei der Pacht darf man zusätzlich die Erträge nutzen, etwa bei einem Acker oder einer Gaststätte."),
            U("ah ok danke! und bei Gewerberäumen?"),
            A("Gewerberäume werden meist gemietet; verpachtet wird etwa ein eingerichtetes Restaurant."),
        ),
        (),
    ),
    # -- French ----------------------------------------------------------------------------------
    Template(
        "fr-job-plus",
        "fr",
        CHAT,
        "Mise à jour du CV",
        (
            U(
                "Petite mise à jour : je ne travaille plus chez {company_old} ; maintenant je suis {role} chez "
                "{company_new}. Tu peux m'aider à mettre à jour mon CV ?"
            ),
            A("Félicitations ! Quelles sont tes missions principales chez {company_new} ?"),
            U("surtout la coordination avec les clients et le suivi des livraisons"),
            A("{role} chez {company_new} : coordination client et suivi des livraisons."),
        ),
        (
            Expect(
                "est {role} chez {company_new} (plus chez {company_old})",
                "FACT",
                ("company_new",),
                change=True,
                prior="Je travaille chez {company_old}.",
            ),
        ),
    ),
    Template(
        "fr-dentiste",
        "fr",
        CHAT,
        "Rendez-vous",
        (
            U(
                "Rappelle-moi que j'ai rendez-vous chez le dentiste le {date} à {time}, au {practice}. Tu peux écrire "
                "un petit mot pour {person} pour dire que j'arriverai en retard ?"
            ),
            A(
                "Bonjour {person}, j'ai un rendez-vous chez le dentiste le {date} à {time}, j'arriverai donc un peu "
                "plus tard. Merci !"
            ),
            U("parfait merci"),
        ),
        (Expect("rendez-vous chez le dentiste le {date} à {time}, {practice}", "NEXT_ACTION", ("date", "practice")),),
    ),
    Template(
        "fr-ci-passage",
        "fr",
        CODE,
        "Pipeline CI",
        (
            U(
                "Pour {project}, on passe de {ci_old} à {ci_new} à partir de la semaine prochaine. Tu peux convertir "
                "le pipeline de build ?"
            ),
            A("Voici une configuration {ci_new} équivalente avec les étapes build, test et lint."),
            U("il manque le cache des dépendances"),
            A("J'ai ajouté le cache, indexé sur le fichier de verrouillage."),
        ),
        (
            Expect(
                "{project} passe de {ci_old} à {ci_new}",
                "DECISION",
                ("project", "ci_new"),
                change=True,
                prior="{project} utilise {ci_old} pour la CI.",
            ),
        ),
    ),
    Template(
        "fr-reponses-tutoie",
        "fr",
        CHAT,
        "Style des réponses",
        (
            U("Je préfère les réponses courtes, sans jargon, s'il te plaît."),
            A("D'accord, je ferai court et simple."),
            U("Et on se tutoie, c'est plus simple. Tu me fais un résumé de l'article que je t'ai collé hier ?"),
            A("Je n'ai pas accès à nos conversations précédentes ; tu peux le coller à nouveau ?"),
        ),
        (
            Expect("préfère les réponses courtes, sans jargon", "PREFERENCE", ("courtes",)),
            Expect("on se tutoie", "PREFERENCE", ("tutoie",)),
        ),
    ),
    Template(
        "fr-allergie",
        "fr",
        CHAT,
        "Recettes",
        (
            U(
                "Je suis allergique aux fruits à coque, donc pas de noix ni d'amandes dans les recettes stp. Tu as une "
                "idée de dessert pour dimanche ?"
            ),
            A("Une tarte aux pommes avec une pâte brisée classique, sans amandes."),
            U("trop bien merci"),
        ),
        (Expect("allergique aux fruits à coque", "CONSTRAINT", ("fruits à coque",), also=("FACT",)),),
    ),
    Template(
        "fr-voyage",
        "fr",
        CHAT,
        "Voyage",
        (
            U(
                "On part à {city} du {date} au {date2}. Il faut que je réserve l'hôtel avant la fin du mois. Tu as des "
                "quartiers à conseiller ?"
            ),
            A("Le centre historique est pratique pour tout faire à pied ; plus calme, le quartier près du parc."),
            U("et pour manger le soir ?"),
            A("Cherche les petites adresses autour du marché couvert."),
        ),
        (
            Expect("voyage à {city} du {date} au {date2}", "NEXT_ACTION", ("city", "date"), also=("FACT",)),
            Expect("réserver l'hôtel avant la fin du mois", "NEXT_ACTION", ("hôtel",)),
        ),
    ),
    Template(
        "fr-rien",
        "fr",
        CHAT,
        "Placements",
        (
            U("Tu peux m'expliquer la différence entre un PEA et une assurance vie ?"),
            A("Le PEA sert à investir en actions européennes ; l'assurance vie est une enveloppe plus large."),
            U("ok merci, c'est plus clair"),
        ),
        (),
    ),
    # -- Spanish ---------------------------------------------------------------------------------
    Template(
        "es-trabajo-ya-no",
        "es",
        CHAT,
        "Perfil profesional",
        (
            U(
                "Te cuento: ya no trabajo en {company_old}, ahora estoy en {company_new} como {role}. ¿Me ayudas a "
                "actualizar mi perfil?"
            ),
            A("¡Enhorabuena! ¿Qué haces principalmente en {company_new}?"),
            U("sobre todo coordinar proyectos con clientes"),
            A("{role} en {company_new}: coordinación de proyectos con clientes."),
        ),
        (
            Expect(
                "trabaja en {company_new} como {role}",
                "FACT",
                ("company_new",),
                change=True,
                prior="Trabajo en {company_old}.",
            ),
        ),
    ),
    Template(
        "es-cita-dentista",
        "es",
        CHAT,
        "Cita",
        (
            U(
                "Recuérdame que tengo cita con el dentista el {date} a las {time} en {practice}. ¿Me escribes un "
                "mensaje para {person} diciendo que llegaré tarde?"
            ),
            A("Hola {person}, el {date} tengo cita con el dentista a las {time}, así que llegaré un poco más tarde."),
            U("genial, gracias"),
        ),
        (Expect("cita con el dentista el {date} a las {time}, {practice}", "NEXT_ACTION", ("date", "practice")),),
    ),
    Template(
        "es-decision-db",
        "es",
        CODE,
        "Migración",
        (
            U("Al final decidimos usar {db_new} en vez de {db_old} para {project}. ¿Qué cambia en las migraciones?"),
            A("Tendrás que revisar los tipos de columnas y las restricciones; te preparo un script de ejemplo."),
            U("vale, hazlo para la tabla de pedidos"),
        ),
        (
            Expect(
                "{project} usa {db_new} en vez de {db_old}",
                "DECISION",
                ("project", "db_new"),
                change=True,
                prior="{project} usa {db_old}.",
            ),
        ),
    ),
    Template(
        "es-sin-gluten",
        "es",
        CHAT,
        "Cena",
        (
            U("No puedo comer gluten, soy celíaca, así que nada de pasta normal. ¿Qué ceno hoy?"),
            A("Un arroz con verduras y pollo, o una tortilla de patatas con ensalada."),
            U("la tortilla, gracias!"),
        ),
        (Expect("no puede comer gluten (celíaca)", "CONSTRAINT", ("gluten",), also=("FACT",)),),
    ),
    Template(
        "es-respuestas",
        "es",
        CHAT,
        "Estilo",
        (
            U("Prefiero que me respondas en español y sin tecnicismos."),
            A("De acuerdo, responderé en español y con palabras sencillas."),
            U("¿Qué es un contrato de arras?"),
            A("Es un contrato previo a la compraventa en el que el comprador entrega una señal."),
        ),
        (Expect("prefiere respuestas en español y sin tecnicismos", "PREFERENCE", ("español",)),),
    ),
    Template(
        "es-curso",
        "es",
        CHAT,
        "Curso",
        (
            U(
                "El mes que viene empiezo un curso de {skill} los {day} por la tarde. ¿Qué necesito llevar el primer "
                "día?"
            ),
            A("Ropa cómoda, una libreta y ganas de aprender."),
            U("jaja vale"),
        ),
        (
            Expect(
                "empieza un curso de {skill} los {day} por la tarde",
                "NEXT_ACTION",
                ("skill",),
                also=("FACT", "GOAL", "WORKFLOW"),
            ),
        ),
    ),
    Template(
        "es-nada",
        "es",
        CODE,
        "Error de Python",
        (
            U("me sale este error y no sé por qué:\n\n```\nTypeError: 'NoneType' object is not subscriptable\n```"),
            A("Alguna variable vale None: revisa lo que devuelve la función antes de indexarla."),
            U("ya, era eso. gracias!"),
        ),
        (),
    ),
)

# The issue's own examples (known failures reported by a user): always in `tune`.
ISSUE_EXAMPLES = frozenset({"en-dentist-remind", "en-deploy-from-now-on", "en-job-no-longer"})
