"""The shape of a sentence of the person's, in English, German, French and Spanish.

Every pattern runs on `fold(sentence)`: lower case, accents stripped, typographic apostrophes made
plain, one character for one (so a match's span is the same span of the original). Patterns are
written without accents ("decide" for "décidé", "manana" for "mañana").

What is here: lead-ins to drop ("quick update:", "remind me that", "erinnere mich bitte:",
"rappelle-moi que", "recuérdame que"), questions and requests to the assistant, hypotheticals,
hedges, code, the first person, rule markers ("from now on", "always", "ab sofort", "désormais",
"a partir de ahora") and time expressions. The cues of each memory type are in kinds.py;
extract.py decides with both; tests/import_eval/ measures them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memvault.core.runtime.text_caches import keeps_text

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'", "`": "'"})


@keeps_text
@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lower case without accents, one character for each character of `text`."""
    out = []
    for char in text.translate(_APOSTROPHES):
        lower = char.lower()
        if len(lower) != 1:
            lower = char
        base = unicodedata.normalize("NFD", lower)[0]
        out.append(base if not unicodedata.combining(base) else lower)
    return "".join(out)


def any_of(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


def words(text: str) -> str:
    return "|".join(sorted(text.split(), key=len, reverse=True))


WEEKDAYS = words(
    """monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays
    saturdays sundays montag dienstag mittwoch donnerstag freitag samstag sonntag montags dienstags mittwochs
    donnerstags freitags samstags sonntags lundi mardi mercredi jeudi vendredi samedi dimanche lunes martes
    miercoles jueves viernes sabado domingo"""
)
MONTHS = words(
    """january february april june july august september october november december januar februar
    marz mai juni juli oktober dezember janvier fevrier mars avril juin juillet aout septembre octobre novembre
    decembre enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
    diciembre"""
)

# -- lead-ins ------------------------------------------------------------------------------------

# Said before what matters; dropped (repeatedly) from a sentence's start.
LEAD_IN = re.compile(
    r"^(?:also|btw|by the way|oh|ah|and|so|well|ok|okay|fyi|ps|heads up|honestly|actually|anyway|"
    r"just so you know|for context|for the record|(?:a )?(?:quick|small|little)? ?update(?: on me)?|"
    r"ubrigens|uebrigens|ach ja|und|(?:ein )?(?:kurzes|kleines)? ?update|zur info|nur zur info|wichtig|"
    r"ehrlich gesagt|au(?:ss|ß)erdem|zudem|"
    r"au fait|alors|et|bon|bref|d'ailleurs|sinon|(?:petite )?mise a jour|pour info|franchement|"
    r"por cierto|bueno|pues|y|oye|vale|te cuento|(?:una )?actualizacion|para que lo sepas|sinceramente|ademas)"
    r"\s*[:,!\-\u2013\u2014]?\s+"
)
# Asking to be reminded, or that something be kept: what follows is worth remembering.
REMEMBER = re.compile(
    r"^(?:(?:please )?(?:remember|note|keep in mind)(?: that)?|remind me(?: that| to| about)?|don't forget(?: that)?|"
    r"erinnere mich(?: bitte)?(?: daran)?(?:,? dass)?|merk dir(?: bitte)?(?:,? dass)?|denk dran(?:,? dass)?|"
    r"nicht vergessen|zur erinnerung|"
    r"rappelle-moi(?: que| de)?|souviens-toi(?: que)?|retiens(?: que)?|n'oublie pas(?: que)?|note(?: que)?|"
    r"pour rappel|rappel|"
    r"recuerdame(?: que)?|recuerda(?: que)?|acuerdate(?: de)?(?: que)?|ten en cuenta(?: que)?|apunta(?: que)?|"
    r"no olvides(?: que)?)"
    r"\s*(?:bitte|please|stp|por favor)?\s*[:,!\-\u2013\u2014]?\s+"
)

# -- what is not a statement ---------------------------------------------------------------------

QUESTION_START = re.compile(
    r"^(?:what|how|why|where|which|who|whom|whose|should (?:i|we)|shall (?:i|we)|do you|does|did you|is there|"
    r"are there|any idea|was|wie|warum|wieso|weshalb|wo|welche[rsmn]?|wer|soll ich|sollen wir|kann man|gibt es|"
    r"hast du|wei(?:ss|ß)t du|que|quoi|comment|pourquoi|quel(?:le)?s?|qui|est-ce que|qu'est-ce|tu as|tu sais|faut-il|"
    r"dois-je|como|por que|donde|cual(?:es)?|quien(?:es)?|hay|tienes|sabes|debo|deberia)\b"
)
REQUEST = re.compile(
    r"^(?:(?:can|could|would|will) you|pls|please|plz|(?:i need|i want|i'd like|i would like) you to|help me|"
    r"let me know|let's|write|explain|fix|show|give|tell|help|make|create|list|summari[sz]e|translate|generate|"
    r"rewrite|draft|check|find|compare|suggest|add|remove|delete|update|change|rename|use|run|commit|push|refactor|"
    r"implement|convert|try|look|read|review|format|sort|shorten|expand|edit|describe|outline|design|build|"
    r"set up|install|debug|test|keep it|go ahead|continue|stop|start|redo|undo|revert|move|put|send|include|"
    r"kannst du|konntest du|wurdest du|bitte|schreib|schreibe|erklar|erklare|hilf|mach|mache|zeig|zeige|gib|"
    r"nenn|nenne|ubersetz|ubersetze|fass|schlag|erstell|erstelle|formulier|formuliere|korrigier|korrigiere|"
    r"pruf|prufe|such|suche|vergleich|vergleiche|lass uns|sag mir|"
    r"(?:tu )?(?:peux|pourrais)(?:-tu)?|est-ce que tu|s'il te plait|stp|svp|ecris|explique|aide-moi|fais|montre|"
    r"donne|dis-moi|traduis|resume|propose|corrige|verifie|cherche|compare|redige|reformule|ajoute|enleve|"
    r"supprime|merci de|"
    r"(?:me )?(?:puedes|podrias)|por favor|escribe|escribeme|explica|explicame|ayudame|haz|hazlo|hazme|muestra|"
    r"muestrame|dame|dime|traduce|resume|propon|corrige|revisa|busca|compara|redacta|anade|quita|borra|"
    r"me ayudas|me escribes|necesito que)\b"
)
HYPOTHETICAL = re.compile(
    r"^(?:what if|if (?:i|we) ever|suppose|imagine|hypothetically|was ware,? wenn|angenommen|stell dir vor|"
    r"et si|imaginons|supposons|y si|supongamos|imagina)\b"
)
CONDITION = re.compile(r"^(?:if|when|unless|whether|wenn|falls|sofern|ob|si|quand|lorsque|cuando|a menos que)\b")
HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|i think|i guess|i suppose|might|not sure if|kind of|sort of|vielleicht|"
    r"wahrscheinlich|eventuell|ich glaube|ich denke|vermutlich|peut-etre|probablement|je pense|je crois|"
    r"sans doute|il se peut|quizas|quiza|tal vez|probablemente|creo que|supongo|a lo mejor)\b"
)
CODE = re.compile(
    r"[{}]|==|=>|->|::|</?[a-z_]+>|\b(?:def|function|return|select|insert|console\.log|import \w+ from)\b|"
    r"\w\(\)|^\s*[$#>]\s|\w+\s*=\s*[\w\"'\[]"
)

# -- the person and their world ------------------------------------------------------------------

FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|we'd|we'll|us|our|ours|ich|mich|mir|mein|meine|meinen|"
    r"meinem|meiner|wir|uns|unser|unsere|unseren|unserem|je|moi|mon|ma|mes|nous|notre|nos|yo|mi|mis|"
    r"nosotros|nosotras|nuestro|nuestra|nuestros|nuestras|tengo|estoy|soy|vivo|trabajo|prefiero|puedo|voy|"
    r"vamos|empiezo|decidimos|decidi|hemos|he|nos|tenemos|estamos|queremos|podemos|usamos|somos|vivimos|"
    r"trabajamos|preferimos)\b|\bj'|\bm'|\bon (?:a|va|part|passe|se|garde|doit|est|fait|utilise|"
    r"travaille|prefere|aime)\b"
)
# Where a rule holds, or from when: "in this repo", "from now on", "ab sofort", "désormais".
RULE_SCOPE = re.compile(
    r"\b(?:from now on|going forward|in this (?:repo|repository|project|codebase)|in (?:our|my) (?:repo|project|"
    r"codebase|team)|as a rule|ab jetzt|ab sofort|von nun an|kunftig|in diesem (?:repo|projekt)|grundsatzlich|"
    r"desormais|dorenavant|a partir de maintenant|dans ce (?:repo|depot|projet)|a partir de ahora|"
    r"de ahora en adelante|en este (?:repo|repositorio|proyecto))\b"
)
# A durable rule, said to the assistant or about how things are done from now on.
RULE = re.compile(
    r"\b(?:always|never|don't ever|do not ever|immer|nie|niemals|toujours|jamais|siempre|nunca|jamas)\b|"
    + RULE_SCOPE.pattern
)
# "Always" said of a time is a schedule, not a rule: "our review is always on Fridays", "immer am Dienstag".
SCHEDULE = re.compile(
    r"\b(?:always|usually|immer|meistens|toujours|siempre|normalmente)\s+(?:on|at|in|am|um|im|le|les|a|el|los|las)"
    r"\s+(?:\d|" + WEEKDAYS + "|" + MONTHS + r"|the (?:morning|evening|weekend))"
)
# How the person wants to be answered (a rule about that is a preference).
ANSWER_STYLE = re.compile(
    r"\b(?:answer|answers|reply|replies|respond|responses|write to me|talk to me|address me|antworte|antworten|"
    r"antwort|schreib mir|duz|duzen|siez|siezen|reponds|repondre|reponse|reponses|tutoie|tutoyer|vouvoie|"
    r"vouvoyer|respondas|responde|responder|respuesta|respuestas|tutea|tutear|hablame|escribeme)\b"
)
# How the person wants to be addressed, said as a fact: a preference on its own.
ADDRESS = re.compile(
    r"\b(?:on se tutoie|on se vouvoie|tutoie-moi|vouvoie-moi|du kannst mich duzen|wir duzen uns|duz mich|"
    r"sie konnen mich duzen|nos tuteamos|tuteame|call me \w+|nenn mich \w+|appelle-moi \w+|llamame \w+)\b"
)
TIME = re.compile(
    r"\b(?:today|tonight|tomorrow|next (?:week|month|year|weekend|" + WEEKDAYS + r")|this (?:week|month|weekend|"
    r"year|morning|evening|" + WEEKDAYS + r")|by|before|until|till|end of|later this|in \d+ (?:days|weeks|months)|"
    r"heute|morgen|ubermorgen|nachste woche|nachsten (?:monat|woche)|diese woche|bis|vor|ende (?:des|der)|"
    r"aujourd'hui|demain|la semaine prochaine|le mois prochain|cette semaine|ce week-end|avant|d'ici|jusqu'au|"
    r"la fin du mois|hoy|manana|la semana que viene|la proxima semana|el mes que viene|el proximo mes|"
    r"esta semana|antes de|hasta|para el|fin de mes|" + MONTHS + "|" + WEEKDAYS + r")\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}:\d{2}\b|\b\d{1,2} ?(?:am|pm)\b|\b\d{1,2}h\d{0,2}\b|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b\d{1,2}[./]\d{1,2}\b|\b\d{1,2}\. ?(?:" + MONTHS + r")\b"
    r"|\b(?:in|on|by|until|before|since|early|late|mid) (?:may|march)\b|\b(?:may|march) \d"  # not "I may", "to march"
)
RECURRING = re.compile(
    r"\b(?:every|each) (?:day|morning|evening|night|week|weekend|month|year|summer|winter|spring|autumn|fall|"
    + WEEKDAYS
    + "|"
    + MONTHS
    + r")\b|\bon (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b"
    r"|\b(?:jeden|jede|jedes) (?:tag|morgen|abend|woche|monat|jahr|sommer|winter|"
    + WEEKDAYS
    + "|"
    + MONTHS
    + r")\b|\b(?:"
    + WEEKDAYS
    + r")s\b|\b(?:chaque|tous les|toutes les) (?:jours|jour|matins|soirs|semaines|"
    r"semaine|mois|ans|ete|hiver|" + WEEKDAYS + "|" + MONTHS + r")\b|\b(?:cada|todos los|todas las) (?:dias|dia|"
    r"mananas|noches|semanas|semana|mes|meses|anos|ano|verano|invierno|" + WEEKDAYS + "|" + MONTHS + r")\b"
    r"|\blos (?:lunes|martes|miercoles|jueves|viernes|sabados|domingos)\b"
    r"|\ble (?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b(?! \d)"  # "le lundi": on Mondays
)
