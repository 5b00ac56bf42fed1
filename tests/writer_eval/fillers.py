"""Slot fillers for the writer evaluation templates, written apart from the templates.

Every value is fictional: invented people, companies, projects and codes. Keys, card numbers,
IBANs and seed phrases are drawn from a seeded random generator: they have the *form* of real
ones (prefixes, lengths, check digits), so that a detector is tested on realistic shapes, but
belong to nobody.

A template names slots as `{slot}` or `{slot[form]}` (a filler with several grammatical forms,
e.g. a German relation in the nominative and the dative). A trailing digit makes a second,
different value of the same list: `{city}` and `{city2}` in one statement are two cities.

`value(slot, lang, rng)` answers one value: a generator below when the slot has one, else a
choice from the language's own list, else from the shared list.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from functools import cache
from typing import Any

# -- shared lists (names, places, products: the same in every language) -------------------------

SHARED: dict[str, list[Any]] = {
    "name": [
        "Ilse",
        "Tobias",
        "Priya",
        "Jonah",
        "Aoife",
        "Callum",
        "Ines",
        "Ravi",
        "Sunniva",
        "Theo",
        "Delphine",
        "Kofi",
        "Wren",
        "Hattie",
        "Mateus",
        "Yara",
        "Oskar",
        "Leocadia",
        "Bram",
        "Noor",
    ],
    "name_f": ["Ilse", "Priya", "Aoife", "Ines", "Sunniva", "Delphine", "Wren", "Hattie", "Yara", "Noor"],
    "name_m": ["Tobias", "Jonah", "Callum", "Ravi", "Theo", "Kofi", "Mateus", "Oskar", "Bram", "Anselm"],
    "child": ["Liv", "Mats", "Zoé", "Pablo", "Emil", "Ada", "Nilo", "Frida", "Timéo", "Lucía", "Ruben", "Elin"],
    "child_m": ["Mats", "Pablo", "Emil", "Nilo", "Timéo", "Ruben"],
    "child_f": ["Liv", "Zoé", "Ada", "Frida", "Lucía", "Elin"],
    "surname": [
        "Ashgrove",
        "Pellman",
        "Okafor-Lind",
        "Verhoeven",
        "Castellano",
        "Drummond",
        "Halvorsen",
        "Quintero",
        "Marchetti",
        "Lindqvist",
        "Brannigan",
        "Oyelaran",
    ],
    "company": [
        "Brightwell Logistics",
        "Nordvik Analytics",
        "Halcyon Robotics",
        "Tidewater Insurance",
        "Quillfeather Press",
        "Larchmont Foods",
        "Emberline Games",
        "Copperfield Energy",
        "Vantaro Systems",
        "Greyfen Studio",
    ],
    "project": [
        "Marten",
        "Juniper",
        "Bramble",
        "Osprey",
        "Lantern",
        "Tamarack",
        "Halyard",
        "Quartz",
        "Saffron",
        "Pinecone",
        "Foxglove",
        "Moraine",
        "Wayfarer",
        "Thistle",
    ],
    "city": [
        "Lyon",
        "Bergen",
        "Porto",
        "Leipzig",
        "Valencia",
        "Ghent",
        "Tampere",
        "Bristol",
        "Graz",
        "Bilbao",
        "Rennes",
        "Malmö",
    ],
    "service": ["Netflix", "Spotify", "Dropbox", "Deezer", "Strava", "Duolingo", "eBay", "Zalando", "Steam", "Vinted"],
    "bank": ["Fernwood Bank", "Caja Almendro", "Banque Solane", "Hafenbank", "Northmere Savings"],
    "host": ["Heroku", "Fly.io", "Render", "Hetzner", "DigitalOcean", "Netlify", "Railway"],
    "db": ["Postgres", "SQLite", "MySQL", "MongoDB", "DuckDB", "ClickHouse", "Redis"],
    "editor": ["Vim", "Helix", "VS Code", "Emacs", "Zed", "Sublime Text", "IntelliJ"],
    "phone": ["Pixel 7", "iPhone 13", "Fairphone 5", "Galaxy S23", "iPhone 15", "Pixel 8a", "Nothing Phone 2"],
    "tool": ["Terraform", "Ansible", "Docker Compose", "Kubernetes", "Celery", "Airflow", "Prefect", "Sentry"],
    "pw_manager": ["Bitwarden", "1Password", "KeePassXC", "Proton Pass"],
    "wifi_name": [
        "Casa-Ruiz",
        "FRITZ!Box 7530 KL",
        "Livebox-88A2",
        "Vodafone-7F21",
        "NETGEAR42",
        "Hofmann_5G",
        "TP-Link_Garten",
        "Wolkenhaus",
        "Bbox-4C19E0",
        "MOVISTAR_3A8F",
    ],
    "car": ["Škoda Octavia", "Renault Zoe", "Toyota Yaris", "Kia Niro", "VW ID.3", "Fiat Panda", "Volvo V60"],
    "app": ["Duolingo", "Babbel", "Busuu", "Anki", "Memrise"],
    "ticket": ["JUN-4821", "OPS-1177", "MAR-309", "HER-2046", "LAN-88", "QTZ-5120"],
    "flight": ["LH 2231", "IB 3417", "AF 1265", "KL 1792", "SK 1468", "TP 1031"],
    "room": ["3.14", "B207", "4.02", "G11", "2.30", "A105"],
    "port": ["8443", "5432", "9090", "3000", "8080", "6379"],
    "errcode": ["137", "502", "0x80070005", "E1102", "429", "ORA-00942"],
    "orientation_en": ["gay", "bisexual", "lesbian", "pansexual", "asexual", "queer"],
    "pct": ["30", "45", "60", "70", "80", "90"],
    "n_small": ["2", "3", "4", "5", "6"],
    "n_req": ["60", "120", "500", "1,000", "3,000"],
    "n_days": ["30", "60", "90", "14", "7"],
    "year": ["2009", "2012", "2014", "2016", "2019"],
    "expiry": ["08/27", "11/26", "03/28", "06/29", "01/27"],
}

# -- per-language lists -----------------------------------------------------------------------------

EN: dict[str, list[Any]] = {
    "rel": [
        {"n": "my sister", "poss": "my sister's", "cap": "My sister's", "word": "sister"},
        {"n": "my brother", "poss": "my brother's", "cap": "My brother's", "word": "brother"},
        {"n": "my mum", "poss": "my mum's", "cap": "Mum's", "word": "mum"},
        {"n": "my dad", "poss": "my dad's", "cap": "Dad's", "word": "dad"},
        {"n": "my grandma", "poss": "my grandma's", "cap": "Grandma's", "word": "grandma"},
        {"n": "my aunt", "poss": "my aunt's", "cap": "My aunt's", "word": "aunt"},
        {"n": "my partner", "poss": "my partner's", "cap": "My partner's", "word": "partner"},
        {"n": "my cousin", "poss": "my cousin's", "cap": "My cousin's", "word": "cousin"},
    ],
    "weekday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "month": ["January", "March", "April", "June", "September", "October", "November"],
    "time": ["7:25", "8:15", "9:30", "10:00", "13:45", "16:20", "18:00"],
    "now": ["today", "right now", "this morning", "tonight", "at the moment", "this afternoon"],
    "job": [
        "planner",
        "data analyst",
        "paramedic trainer",
        "copy editor",
        "site manager",
        "UX researcher",
        "payroll clerk",
        "sound engineer",
    ],
    "drink": ["black coffee", "rooibos", "an oat flat white", "mint tea", "espresso", "hot chocolate", "chai"],
    "language": ["Catalan", "Japanese", "Italian", "Dutch", "Polish", "Korean", "Norwegian"],
    "pet": [
        {"n": "dog", "a": "a dog"},
        {"n": "cat", "a": "a cat"},
        {"n": "rabbit", "a": "a rabbit"},
        {"n": "parrot", "a": "a parrot"},
    ],
    "pet_name": ["Biscuit", "Pepper", "Moss", "Tofu", "Juniper", "Captain", "Nutmeg", "Olive"],
    "price": ["£450", "£1,200", "£85", "£2,300", "£640", "£39.99"],
    "price2": ["£495", "£1,350", "£95", "£2,450", "£720", "£44.99"],
    "rent": ["£950", "£1,120", "£780", "£1,400", "£865", "£1,045"],
    "date": ["14 March", "2 June", "30 September", "1 December", "19 May", "8 July"],
    "place": ["the allotment", "the office", "my parents' building", "the climbing gym", "the studio", "the cabin"],
    "mood_tired": ["wiped out", "knackered", "drained", "dead tired", "shattered", "completely fried"],
    "mood_cross": ["annoyed", "irritated", "grumpy", "cranky", "ratty", "wound up"],
    "mood_good": ["in a really good mood", "weirdly cheerful", "on top of the world", "buzzing", "so chill"],
    "mood_low": ["a bit down", "kinda flat", "low", "blah", "out of sorts"],
    "intens": ["so", "really", "super", "very", "soooo", "pretty"],
    "event": ["the move", "the offsite", "that workshop", "the school fair", "back-to-back meetings", "the drive"],
    "med_cond": [
        {"med": "sertraline", "cond": "depression"},
        {"med": "metformin", "cond": "type 2 diabetes"},
        {"med": "levothyroxine", "cond": "underactive thyroid"},
        {"med": "lamotrigine", "cond": "epilepsy"},
        {"med": "an inhaler", "cond": "asthma"},
        {"med": "methylphenidate", "cond": "ADHD"},
        {"med": "lithium", "cond": "bipolar disorder"},
        {"med": "propranolol", "cond": "anxiety"},
    ],
    "condition": [
        "Crohn's disease",
        "generalised anxiety disorder",
        "multiple sclerosis",
        "endometriosis",
        "PTSD",
        "coeliac disease",
        "long COVID",
        "an eating disorder",
    ],
    "religion": [
        {"adj": "Muslim", "fast": "Ramadan", "day": "Friday", "place": "the mosque"},
        {"adj": "Catholic", "fast": "Lent", "day": "Sunday", "place": "mass"},
        {"adj": "Jewish", "fast": "Yom Kippur", "day": "Saturday", "place": "synagogue"},
        {"adj": "Orthodox Christian", "fast": "Great Lent", "day": "Sunday", "place": "the liturgy"},
        {"adj": "Hindu", "fast": "Navratri", "day": "Tuesday", "place": "the mandir"},
        {"adj": "Sikh", "fast": "Gurpurab", "day": "Sunday", "place": "the gurdwara"},
    ],
    "party": [
        "the Green Party",
        "the Social Democrats",
        "the Liberal Democrats",
        "the Left Party",
        "the Pirate Party",
        "the Labour Party",
    ],
    "union": [
        "the teachers' union",
        "the nurses' union",
        "the rail workers' union",
        "the postal workers' union",
        "the journalists' union",
    ],
    "cause": ["climate", "housing", "anti-austerity", "refugee rights", "pension reform"],
    "ethnicity": [
        {"group": "Roma", "lang": "Romani"},
        {"group": "Kurdish", "lang": "Kurmanji"},
        {"group": "Sámi", "lang": "Northern Sámi"},
        {"group": "Berber", "lang": "Tamazight"},
        {"group": "Tamil", "lang": "Tamil"},
        {"group": "Yoruba", "lang": "Yoruba"},
    ],
    "half": ["Korean", "Nigerian", "Vietnamese", "Turkish", "Jamaican", "Punjabi", "Moroccan"],
    "gene": ["BRCA1", "BRCA2", "APOE4", "Factor V Leiden", "MTHFR", "HFE"],
    "gen_cond": ["cystic fibrosis", "sickle cell anaemia", "Tay-Sachs", "haemochromatosis", "spinal muscular atrophy"],
    "offence": ["drink driving", "shoplifting", "possession", "affray", "fraud", "criminal damage"],
    "debt": ["£4,800", "£14,000", "£7,250", "£22,000", "£3,100"],
    "child_cond": ["dyslexia", "ADHD", "autism", "type 1 diabetes", "a stammer", "epilepsy", "severe eczema"],
    "child_med": ["insulin pens", "EpiPen", "inhaler", "ADHD meds", "eczema cream"],
    "school": ["Riverside Primary", "St Columba's", "Hollyfield Academy", "Brookvale Juniors", "Ashmount School"],
    "book_about": [
        "a book about depression in Victorian literature",
        "a history of the Reformation",
        "a novel about the 1984 miners' strike",
        "an essay collection on the genetics of domestic cats",
        "a biography of a 19th-century bankruptcy lawyer",
        "a thriller about a prison break in Marseille",
    ],
    "charity": ["cancer research", "the local food bank", "a mental health helpline", "the children's hospice"],
    "clinic": ["dental", "physiotherapy", "veterinary", "fertility", "dermatology"],
    "topic_pol": ["election polling", "the history of trade unions", "local council budgets", "voter turnout"],
    "study": ["genetics", "criminology", "theology", "psychology", "public health"],
    "food": ["coriander", "olives", "mushrooms", "blue cheese", "aubergine", "liquorice"],
    "format": ["bullet points", "short paragraphs", "tables", "numbered steps"],
    "mode": ["bus", "tram", "car", "train", "bike", "e-scooter"],
    "stage": [
        {"a": "alpha", "b": "beta"},
        {"a": "beta", "b": "release candidate"},
        {"a": "private beta", "b": "public beta"},
        {"a": "prototype", "b": "pilot"},
    ],
    "component": ["payments", "auth", "search", "data platform", "mobile"],
    "document": ["passport", "driving licence", "car insurance", "TV licence", "railcard"],
    "thing": ["board game", "e-bike", "sewing machine", "telescope", "power tool"],
    "phone_no": ["01632 960 418", "+44 1632 960 772", "(555) 010-4471", "01632 960 035"],
    "ext": ["4417", "212", "3309", "118", "5561"],
    "street": ["Larkspur Road", "Millbank Lane", "Quarry Street", "Orchard Row", "Canal Walk"],
    "hours": ["five", "six", "seven", "eight"],
    "fast_food": ["pizza", "ramen", "tacos", "curry", "sushi"],
}

DE: dict[str, list[Any]] = {
    "half": ["Koreanerin", "Nigerianer", "Vietnamesin", "Türke", "Marokkanerin", "Ghanaer"],
    "rel": [
        {"nom": "meine Schwester", "dat": "meiner Schwester", "gen": "meiner Schwester", "cap": "Meine Schwester"},
        {"nom": "mein Bruder", "dat": "meinem Bruder", "gen": "meines Bruders", "cap": "Mein Bruder"},
        {"nom": "meine Mutter", "dat": "meiner Mutter", "gen": "meiner Mutter", "cap": "Meine Mutter"},
        {"nom": "mein Vater", "dat": "meinem Vater", "gen": "meines Vaters", "cap": "Mein Vater"},
        {"nom": "meine Oma", "dat": "meiner Oma", "gen": "meiner Oma", "cap": "Meine Oma"},
        {"nom": "mein Onkel", "dat": "meinem Onkel", "gen": "meines Onkels", "cap": "Mein Onkel"},
    ],
    "weekday": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
    "month": ["Januar", "März", "April", "Juni", "September", "Oktober", "November"],
    "time": ["7:25", "8:15", "9:30", "10 Uhr", "13:45", "16:20", "18 Uhr"],
    "now": ["heute", "gerade", "heute Morgen", "heute Abend", "im Moment", "grad"],
    "job": ["Disponentin", "Datenanalyst", "Lektorin", "Bauleiter", "Steuerfachangestellte", "Tontechniker"],
    "drink": ["schwarzen Kaffee", "Pfefferminztee", "Rooibos", "Espresso", "heiße Schokolade", "Chai"],
    "language": ["Portugiesisch", "Japanisch", "Italienisch", "Niederländisch", "Polnisch", "Koreanisch"],
    "price": ["450 €", "1.200 €", "85 €", "2.300 €", "640 €", "39,99 €"],
    "price2": ["495 €", "1.350 €", "95 €", "2.450 €", "720 €", "44,99 €"],
    "date": ["14. März", "2. Juni", "30. September", "1. Dezember", "19. Mai", "8. Juli"],
    "mood_tired": ["total erledigt", "fix und fertig", "völlig platt", "hundemüde", "k.o.", "durch"],
    "mood_cross": ["genervt", "schlecht gelaunt", "grantig", "gereizt", "angefressen", "mies drauf"],
    "mood_good": ["richtig gut drauf", "super gelaunt", "bestens gelaunt", "voll happy"],
    "intens": ["so", "echt", "total", "voll", "richtig", "mega"],
    "med_cond": [
        {"med": "Sertralin", "cond": "Depressionen"},
        {"med": "Metformin", "cond": "Typ-2-Diabetes"},
        {"med": "L-Thyroxin", "cond": "einer Schilddrüsenunterfunktion"},
        {"med": "Lamotrigin", "cond": "Epilepsie"},
        {"med": "Methylphenidat", "cond": "ADHS"},
        {"med": "Lithium", "cond": "einer bipolaren Störung"},
    ],
    "condition": [
        "Morbus Crohn",
        "eine Angststörung",
        "Multiple Sklerose",
        "Endometriose",
        "eine PTBS",
        "Zöliakie",
        "Long Covid",
    ],
    "religion": [
        {"adj": "Muslimin", "fast": "im Ramadan", "day": "Freitag", "place": "in die Moschee"},
        {"adj": "Katholikin", "fast": "in der Fastenzeit", "day": "Sonntag", "place": "in die Messe"},
        {"adj": "Jüdin", "fast": "an Jom Kippur", "day": "Samstag", "place": "in die Synagoge"},
        {"adj": "Alevitin", "fast": "im Muharrem", "day": "Donnerstag", "place": "ins Cemevi"},
        {"adj": "Buddhistin", "fast": "an Vesakh", "day": "Sonntag", "place": "ins Zentrum"},
    ],
    "party": ["bei den Grünen", "in der SPD", "bei der Linken", "in der FDP", "bei den Piraten"],
    "union": ["bei ver.di", "in der GEW", "bei der IG Metall", "bei der EVG", "in der NGG"],
    "ethnicity": [
        {"group": "Roma", "lang": "Romanes"},
        {"group": "Kurden", "lang": "Kurmandschi"},
        {"group": "Sorben", "lang": "Sorbisch"},
        {"group": "Tamilen", "lang": "Tamil"},
        {"group": "Jesiden", "lang": "Kurmandschi"},
    ],
    "gene": ["BRCA1", "BRCA2", "APOE4", "Faktor-V-Leiden", "HFE"],
    "gen_cond": ["Mukoviszidose", "Sichelzellanämie", "Hämochromatose", "Chorea Huntington"],
    "offence": ["Trunkenheit am Steuer", "Ladendiebstahl", "Betrug", "Körperverletzung", "Sachbeschädigung"],
    "debt": ["4.800 €", "14.000 €", "7.250 €", "22.000 €", "3.100 €"],
    "child_cond": ["Legasthenie", "ADHS", "Autismus", "Typ-1-Diabetes", "Epilepsie", "Neurodermitis"],
    "school": [
        "auf die Lindenhof-Grundschule",
        "auf die Gesamtschule am Park",
        "auf die Waldschule",
        "aufs Goethe-Gymnasium",
        "in die Kita Sonnenblume",
    ],
    "book_about": [
        "ein Buch über Depression in der Literatur der Romantik",
        "eine Geschichte der Reformation",
        "einen Roman über einen Gefängnisausbruch in Triest",
        "ein Sachbuch über die Genetik von Hauskatzen",
    ],
    "charity": ["die Krebsforschung", "die Tafel", "ein Kinderhospiz", "die Telefonseelsorge"],
    "food": ["Koriander", "Oliven", "Pilze", "Blauschimmelkäse", "Auberginen", "Lakritz"],
    "mode": ["mit dem Bus", "mit der Straßenbahn", "mit dem Auto", "mit dem Zug", "mit dem Rad"],
    "stage": [{"a": "Alpha", "b": "Beta"}, {"a": "Beta", "b": "Release Candidate"}, {"a": "Prototyp", "b": "Pilot"}],
    "document": ["den Reisepass", "den Personalausweis", "den Führerschein", "das Deutschlandticket"],
    "phone_no": ["030 23125 417", "+49 30 23125 880", "0171 3925 661"],
    "ext": ["4417", "212", "3309", "118"],
}

FR: dict[str, list[Any]] = {
    "half": ["coréenne", "nigérian", "vietnamienne", "turc", "marocaine", "malienne"],
    "rel": [
        {"n": "ma sœur", "de": "de ma sœur", "cap": "Ma sœur", "chez": "chez ma sœur"},
        {"n": "mon frère", "de": "de mon frère", "cap": "Mon frère", "chez": "chez mon frère"},
        {"n": "ma mère", "de": "de ma mère", "cap": "Ma mère", "chez": "chez ma mère"},
        {"n": "mon père", "de": "de mon père", "cap": "Mon père", "chez": "chez mon père"},
        {"n": "mamie", "de": "de mamie", "cap": "Mamie", "chez": "chez mamie"},
        {"n": "mon oncle", "de": "de mon oncle", "cap": "Mon oncle", "chez": "chez mon oncle"},
    ],
    "weekday": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
    "month": ["janvier", "mars", "avril", "juin", "septembre", "octobre", "novembre"],
    "time": ["7h40", "8h15", "9h30", "10h", "13h45", "16h20", "18h"],
    "now": ["aujourd'hui", "là", "ce matin", "ce soir", "en ce moment", "cet aprèm"],
    "job": ["planificatrice", "analyste de données", "correctrice", "chef de chantier", "comptable", "ingé son"],
    "drink": ["le café noir", "le thé à la menthe", "le rooibos", "l'espresso", "le chocolat chaud", "le chaï"],
    "language": ["le portugais", "le japonais", "l'italien", "le néerlandais", "le polonais", "le coréen"],
    "price": ["450 €", "1 200 €", "85 €", "2 300 €", "640 €", "39,99 €"],
    "price2": ["495 €", "1 350 €", "95 €", "2 450 €", "720 €", "44,99 €"],
    "date": ["14 mars", "2 juin", "30 septembre", "1er décembre", "19 mai", "8 juillet"],
    "mood_tired": ["crevé", "lessivé", "épuisé", "vanné", "claqué", "HS"],
    "mood_cross": ["énervé", "de mauvais poil", "agacé", "grognon", "à cran", "de mauvaise humeur"],
    "mood_good": ["de super bonne humeur", "d'humeur joyeuse", "au top", "tout guilleret"],
    "intens": ["trop", "vraiment", "grave", "super", "complètement", "tellement"],
    "med_cond": [
        {"med": "de la sertraline", "cond": "une dépression"},
        {"med": "de la metformine", "cond": "un diabète de type 2"},
        {"med": "du Levothyrox", "cond": "une hypothyroïdie"},
        {"med": "de la lamotrigine", "cond": "une épilepsie"},
        {"med": "de la Ritaline", "cond": "un TDAH"},
        {"med": "du lithium", "cond": "un trouble bipolaire"},
    ],
    "condition": [
        "une maladie de Crohn",
        "un trouble anxieux",
        "une sclérose en plaques",
        "une endométriose",
        "un stress post-traumatique",
        "une maladie cœliaque",
        "un Covid long",
    ],
    "religion": [
        {"adj": "musulmane", "fast": "le ramadan", "day": "vendredi", "place": "à la mosquée"},
        {"adj": "catholique", "fast": "le carême", "day": "dimanche", "place": "à la messe"},
        {"adj": "juive", "fast": "Yom Kippour", "day": "samedi", "place": "à la synagogue"},
        {"adj": "protestante", "fast": "le carême", "day": "dimanche", "place": "au temple"},
        {"adj": "bouddhiste", "fast": "le Vesak", "day": "dimanche", "place": "à la pagode"},
    ],
    "party": [
        "chez les Verts",
        "au Parti socialiste",
        "à La France insoumise",
        "chez les Républicains",
        "au Parti communiste",
    ],
    "union": ["à la CGT", "à la CFDT", "à FO", "à SUD Rail", "au SNES"],
    "ethnicity": [
        {"group": "rom", "lang": "le romani"},
        {"group": "kurde", "lang": "le kurmandji"},
        {"group": "kabyle", "lang": "le kabyle"},
        {"group": "tamoule", "lang": "le tamoul"},
        {"group": "peule", "lang": "le peul"},
    ],
    "gene": ["BRCA1", "BRCA2", "APOE4", "facteur V Leiden", "HFE"],
    "gen_cond": ["la mucoviscidose", "la drépanocytose", "l'hémochromatose", "la maladie de Huntington"],
    "offence": ["conduite en état d'ivresse", "vol à l'étalage", "escroquerie", "violences", "dégradations"],
    "debt": ["4 800 €", "14 000 €", "7 250 €", "22 000 €", "3 100 €"],
    "child_cond": [
        "une dyslexie",
        "un TDAH",
        "un trouble autistique",
        "un diabète de type 1",
        "une épilepsie",
        "de l'eczéma sévère",
    ],
    "school": ["à l'école Jules-Ferry", "au collège Victor-Hugo", "à l'école des Tilleuls", "au lycée Camille-Claudel"],
    "book_about": [
        "un livre sur la dépression dans la littérature romantique",
        "une histoire des guerres de Religion",
        "un roman sur une évasion de prison à Marseille",
        "un essai sur la génétique des chats",
    ],
    "charity": ["la recherche contre le cancer", "les Restos du cœur", "un hôpital pour enfants"],
    "food": ["la coriandre", "les olives", "les champignons", "le roquefort", "les aubergines", "la réglisse"],
    "mode": ["en bus", "en tram", "en voiture", "en train", "à vélo", "en trottinette"],
    "stage": [{"a": "alpha", "b": "bêta"}, {"a": "bêta", "b": "release candidate"}, {"a": "prototype", "b": "pilote"}],
    "document": ["mon passeport", "ma carte d'identité", "mon permis de conduire", "mon pass Navigo"],
    "phone_no": ["01 99 00 24 17", "+33 1 99 00 38 80", "06 39 98 25 61"],
    "ext": ["4417", "212", "3309", "118"],
}

ES: dict[str, list[Any]] = {
    "half": ["coreana", "nigeriano", "vietnamita", "turco", "marroquí", "senegalesa"],
    "rel": [
        {"n": "mi hermana", "de": "de mi hermana", "cap": "Mi hermana", "casa": "en casa de mi hermana"},
        {"n": "mi hermano", "de": "de mi hermano", "cap": "Mi hermano", "casa": "en casa de mi hermano"},
        {"n": "mi madre", "de": "de mi madre", "cap": "Mi madre", "casa": "en casa de mi madre"},
        {"n": "mi padre", "de": "de mi padre", "cap": "Mi padre", "casa": "en casa de mi padre"},
        {"n": "la abuela", "de": "de la abuela", "cap": "La abuela", "casa": "en casa de la abuela"},
        {"n": "mi tío", "de": "de mi tío", "cap": "Mi tío", "casa": "en casa de mi tío"},
    ],
    "weekday": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
    "month": ["enero", "marzo", "abril", "junio", "septiembre", "octubre", "noviembre"],
    "time": ["7:25", "8:15", "9:30", "10:00", "13:45", "16:20", "18:00"],
    "now": ["hoy", "ahora mismo", "esta mañana", "esta noche", "ahora", "esta tarde"],
    "job": ["planificadora", "analista de datos", "correctora", "jefe de obra", "contable", "técnico de sonido"],
    "drink": ["el café solo", "el té de menta", "el rooibos", "el cortado", "el chocolate caliente", "el chai"],
    "language": ["portugués", "japonés", "italiano", "neerlandés", "polaco", "coreano"],
    "price": ["450 €", "1.200 €", "85 €", "2.300 €", "640 €", "39,99 €"],
    "price2": ["495 €", "1.350 €", "95 €", "2.450 €", "720 €", "44,99 €"],
    "date": ["el 14 de marzo", "el 2 de junio", "el 30 de septiembre", "el 1 de diciembre", "el 19 de mayo"],
    "mood_tired": ["reventada", "hecho polvo", "agotada", "muerto de sueño", "molida", "frito"],
    "mood_cross": ["de mal humor", "mosqueada", "cabreado", "irritada", "de malas", "rayado"],
    "mood_good": ["de muy buen humor", "contentísima", "de subidón", "súper animado"],
    "intens": ["muy", "súper", "tan", "bastante", "re", "demasiado"],
    "med_cond": [
        {"med": "sertralina", "cond": "la depresión"},
        {"med": "metformina", "cond": "la diabetes tipo 2"},
        {"med": "Eutirox", "cond": "el hipotiroidismo"},
        {"med": "lamotrigina", "cond": "la epilepsia"},
        {"med": "metilfenidato", "cond": "el TDAH"},
        {"med": "litio", "cond": "el trastorno bipolar"},
    ],
    "condition": [
        "enfermedad de Crohn",
        "un trastorno de ansiedad",
        "esclerosis múltiple",
        "endometriosis",
        "estrés postraumático",
        "celiaquía",
        "covid persistente",
    ],
    "religion": [
        {"adj": "musulmana", "fast": "el Ramadán", "day": "viernes", "place": "a la mezquita"},
        {"adj": "católica", "fast": "la Cuaresma", "day": "domingo", "place": "a misa"},
        {"adj": "judía", "fast": "Yom Kipur", "day": "sábado", "place": "a la sinagoga"},
        {"adj": "evangélica", "fast": "la Cuaresma", "day": "domingo", "place": "al culto"},
        {"adj": "budista", "fast": "el Vesak", "day": "domingo", "place": "al centro zen"},
    ],
    "party": ["a Podemos", "al PSOE", "al PP", "a Sumar", "a Compromís"],
    "union": ["de CCOO", "de UGT", "de la CGT", "de CSIF", "de ELA"],
    "ethnicity": [
        {"group": "gitana", "lang": "caló"},
        {"group": "amazigh", "lang": "tamazight"},
        {"group": "quechua", "lang": "quechua"},
        {"group": "mapuche", "lang": "mapudungun"},
        {"group": "wolof", "lang": "wólof"},
    ],
    "gene": ["BRCA1", "BRCA2", "APOE4", "factor V Leiden", "HFE"],
    "gen_cond": ["fibrosis quística", "anemia falciforme", "hemocromatosis", "la enfermedad de Huntington"],
    "offence": ["conducir ebrio", "hurto", "estafa", "lesiones", "daños"],
    "debt": ["4.800 €", "14.000 €", "7.250 €", "22.000 €", "3.100 €"],
    "child_cond": ["dislexia", "TDAH", "autismo", "diabetes tipo 1", "epilepsia", "dermatitis atópica"],
    "school": [
        "el CEIP Miguel Hernández",
        "el colegio Los Almendros",
        "el IES Clara Campoamor",
        "la escuela Montessori del barrio",
    ],
    "book_about": [
        "un libro sobre la depresión en la novela del XIX",
        "una historia de la Inquisición",
        "una novela sobre una fuga de la cárcel de Cádiz",
        "un ensayo sobre la genética de los gatos",
    ],
    "charity": ["la investigación contra el cáncer", "el banco de alimentos", "un hospital infantil"],
    "food": ["el cilantro", "las aceitunas", "las setas", "el queso azul", "la berenjena", "el regaliz"],
    "mode": ["en autobús", "en tranvía", "en coche", "en tren", "en bici", "en patinete"],
    "stage": [{"a": "alfa", "b": "beta"}, {"a": "beta", "b": "release candidate"}, {"a": "prototipo", "b": "piloto"}],
    "document": ["pasaporte", "DNI", "carné de conducir", "abono transporte"],
    "phone_no": ["910 000 417", "+34 910 000 880", "600 000 661"],
    "ext": ["4417", "212", "3309", "118"],
}

LISTS: dict[str, dict[str, list[Any]]] = {"en": EN, "de": DE, "fr": FR, "es": ES}

# -- generated values -------------------------------------------------------------------------------

DIGIT_WORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
}
# Words a person might build a password from (no dictionary of real passwords is used).
PASSWORD_WORDS = [
    "tangerine",
    "harbour",
    "pelican",
    "otter",
    "lantern",
    "quince",
    "saffron",
    "orchid",
    "falcon",
    "biscuit",
    "glacier",
    "tulip",
    "cobalt",
    "marmot",
    "Kastanie",
    "Zitrone",
    "Wolke",
    "lavande",
    "citron",
    "nuage",
    "limonada",
    "girasol",
    "tortuga",
    "naranja",
    "plume",
    "Igel",
    "Sonne",
    "cereza",
]
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _pin(rng: random.Random, n: int = 4) -> str:
    while True:  # not a run like 1234 or 0000: people are told not to use those, and they read as counts
        pin = _digits(rng, n)
        if len(set(pin)) > 2 and pin not in "0123456789" and not pin.startswith(("19", "20")):
            return pin


def _password(rng: random.Random, _lang: str) -> str:
    style = rng.randrange(5)
    word, other = rng.sample(PASSWORD_WORDS, 2)
    if style == 0:
        return f"{word.capitalize()}{rng.choice('!#$%&*?')}{_digits(rng, rng.choice((2, 3, 4)))}"
    if style == 1:
        return f"{word.lower()}-{other.lower()}-{_digits(rng, 2)}"
    if style == 2:
        return "".join(rng.choice(ALNUM + "!#%&*") for _ in range(rng.choice((10, 12, 14))))
    if style == 3:
        leet = word.lower().translate(str.maketrans("aeio", "4310"))
        return f"{leet}{_digits(rng, 4)}"
    return f"{word.capitalize()}{other.capitalize()}{_digits(rng, 2)}"


def _wifi_key(rng: random.Random, lang: str) -> str:
    if rng.random() < 0.4:
        return "".join(rng.choice(UPPER_DIGITS) for _ in range(rng.choice((10, 16, 20))))
    return _password(rng, lang)


def _luhn_complete(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:  # doubled: these are the positions left of the check digit, from the right
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return body + str((10 - total % 10) % 10)


def _card(rng: random.Random, _lang: str) -> str:
    prefix = rng.choice(("4", "51", "53", "55", "22"))
    number = _luhn_complete(prefix + _digits(rng, 15 - len(prefix)))
    sep = rng.choice((" ", " ", "-", ""))
    return sep.join(number[i : i + 4] for i in range(0, 16, 4))


_IBAN_LAYOUT = {"en": ("GB", "L4D14"), "de": ("DE", "D18"), "fr": ("FR", "D10A11D2"), "es": ("ES", "D20")}


def _bban(rng: random.Random, layout: str) -> str:
    out = []
    i = 0
    while i < len(layout):
        kind = layout[i]
        j = i + 1
        while j < len(layout) and layout[j].isdigit():
            j += 1
        count = int(layout[i + 1 : j])
        pool = {"D": string.digits, "L": string.ascii_uppercase, "A": string.digits}[kind]
        out.append("".join(rng.choice(pool) for _ in range(count)))
        i = j
    return "".join(out)


def _iban(rng: random.Random, lang: str) -> str:
    """An IBAN of the language's country with valid check digits (national ones too, by retrying)."""
    from stdnum import iban  # noqa: PLC0415 - the registry's own format rules, only to make valid shapes

    country, layout = _IBAN_LAYOUT[lang]
    while True:
        bban = _bban(rng, layout)
        numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
        check = 98 - int(numeric) % 97
        compact = f"{country}{check:02d}{bban}"
        if iban.is_valid(compact):
            return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4)) if rng.random() < 0.7 else compact


def _api_key(rng: random.Random, _lang: str) -> str:
    kind = rng.randrange(7)
    if kind == 0:
        return "sk-proj-" + "".join(rng.choice(ALNUM) for _ in range(48))
    if kind == 1:
        return "ghp_" + "".join(rng.choice(ALNUM) for _ in range(36))
    if kind == 2:
        return "AKIA" + "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16))
    if kind == 3:
        return "sk_live_" + "".join(rng.choice(ALNUM) for _ in range(24))
    if kind == 4:
        return f"xoxb-{_digits(rng, 11)}-{_digits(rng, 13)}-" + "".join(rng.choice(ALNUM) for _ in range(24))
    if kind == 5:
        return "AIza" + "".join(rng.choice(ALNUM + "-_") for _ in range(35))
    return "".join(rng.choice("0123456789abcdef") for _ in range(32))


def _split_key(rng: random.Random, lang: str) -> dict[str, str]:
    """A key told in two halves (the template puts words between them)."""
    key = "".join(rng.choice(ALNUM) for _ in range(rng.choice((32, 40))))
    cut = len(key) // 2
    return {"head": key[:cut], "tail": key[cut:]}


def _aws(rng: random.Random, _lang: str) -> dict[str, str]:
    return {
        "id": "AKIA" + "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16)),
        "secret": "".join(rng.choice(ALNUM + "/+") for _ in range(40)),
    }


def _jwt(rng: random.Random, _lang: str) -> str:
    import base64  # noqa: PLC0415
    import json  # noqa: PLC0415

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps({"sub": _digits(rng, 8), "iat": 1760000000 + rng.randrange(10**6)}).encode())
    sig = b64(bytes(rng.randrange(256) for _ in range(32)))
    return f"{head}.{body}.{sig}"


@cache
def _bip39() -> list[str]:
    from mnemonic import Mnemonic  # noqa: PLC0415 - the reference word list, to make seed phrases of the real form

    return list(Mnemonic("english").wordlist)


def _seed(rng: random.Random, _lang: str) -> str:
    return " ".join(rng.choice(_bip39()) for _ in range(12))


def _recovery_codes(rng: random.Random, _lang: str) -> str:
    pool = string.ascii_lowercase + string.digits
    codes = [
        "".join(rng.choice(pool) for _ in range(5)) + "-" + "".join(rng.choice(pool) for _ in range(5))
        for _ in range(rng.choice((2, 3, 4)))
    ]
    return ", ".join(codes)


def _email(rng: random.Random, _lang: str) -> str:
    first = rng.choice(SHARED["name"]).lower()
    return f"{first}.{rng.choice(SHARED['surname']).lower().replace('-', '')}{_digits(rng, 2)}@example.org"


def _username(rng: random.Random, _lang: str) -> str:
    return rng.choice(SHARED["name"]).lower() + rng.choice(("_", ".", "")) + _digits(rng, rng.choice((2, 3)))


def _combo(rng: random.Random, _lang: str) -> str:
    return "-".join(f"{rng.randrange(40):02d}" for _ in range(3))


def _git_sha(rng: random.Random, _lang: str) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(40))


def _hex64(rng: random.Random, _lang: str) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(64))


def _tracking(rng: random.Random, _lang: str) -> str:
    return f"JD{_digits(rng, 16)}"


GENERATORS: dict[str, Callable[[random.Random, str], Any]] = {
    "password": _password,
    "wifi_key": _wifi_key,
    "pin4": lambda rng, _l: _pin(rng, 4),
    "pin6": lambda rng, _l: _pin(rng, 6),
    "pin_words": lambda rng, lang: " ".join(DIGIT_WORDS[lang][int(d)] for d in _pin(rng, 4)),
    "pin_dashed": lambda rng, _l: "-".join(_pin(rng, 4)),
    "pin_spaced": lambda rng, _l: " ".join(_pin(rng, rng.choice((4, 5, 6)))),
    "door_code": lambda rng, _l: _pin(rng, rng.choice((4, 5, 6))) + rng.choice(("", "", "#", "*")),
    "otp": lambda rng, _l: _digits(rng, 6),
    "otp_spaced": lambda rng, _l: f"{_digits(rng, 3)} {_digits(rng, 3)}",
    "puk": lambda rng, _l: _digits(rng, 8),
    "cvc": lambda rng, _l: _digits(rng, 3),
    "card": _card,
    "iban": _iban,
    "api_key": _api_key,
    "split": _split_key,
    "aws": _aws,
    "jwt": _jwt,
    "seed": _seed,
    "recovery_codes": _recovery_codes,
    "email": _email,
    "username": _username,
    "combo": _combo,
    "git_sha": _git_sha,
    "hex64": _hex64,
    "tracking": _tracking,
}


def _known(slot: str) -> bool:
    return slot in GENERATORS or slot in SHARED or any(slot in lists for lists in LISTS.values())


def base_slot(field: str) -> str:
    """`city2` -> `city`; `rel[dat]` -> `rel` (the list a slot draws from); `pin4` is a slot of its own."""
    name = field.split("[", 1)[0].split(".", 1)[0]
    return name if _known(name) else (name.rstrip("0123456789") or name)


def value(slot: str, lang: str, rng: random.Random) -> Any:
    if slot in GENERATORS:
        return GENERATORS[slot](rng, lang)
    pool = LISTS[lang].get(slot) or SHARED.get(slot)
    if not pool:
        raise KeyError(f"no filler for slot {slot!r} in {lang}")
    return rng.choice(pool)


def pool_size(slot: str, lang: str) -> int:
    """How many distinct values a list slot has (generated slots: practically unbounded)."""
    if slot in GENERATORS:
        return 10**6
    return len(LISTS[lang].get(slot) or SHARED.get(slot) or [])
