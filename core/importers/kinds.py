"""The cues of each memory type, in English, German, French and Spanish (on `cues.fold` text).

extract.type_of weighs them in order: a correction of the assistant, an open question, a decision,
a hard limit, a plan or appointment with its time (a goal when it is what the person wants), a
preference, a habit, a rule, what worked or did not, a discovery, a project and its state, a fact.
"""

from __future__ import annotations

import re

from memvault.core.importers.cues import MONTHS, WEEKDAYS, any_of

USER_CORRECTION = re.compile(
    r"^(?:correction|to correct|actually no|no|nope|nein|falsch|korrektur|non|rectification|"
    r"correction|no es asi|correccion)\s*[,:]\s+(?=\S)"
)
OPEN_QUESTION = any_of(
    r"\b(?:haven't|have not|hasn't|not yet) (?:yet )?decided\b|\b(?:not sure|unsure|undecided|torn) "
    r"(?:whether|if|about|between)\b|\bcan't decide\b|\bdon't know (?:yet )?(?:whether|if)\b|\bstill deciding\b"
    r"|\bstill figuring out\b|\bstill undecided\b|^(?:open question|unresolved)\b",
    r"\b(?:noch nicht|nicht) (?:entschieden|sicher,? ob)\b|\bwei(?:ss|ß) (?:noch )?nicht,? ob\b|\bunschlussig\b|"
    r"\boffene frage\b|\bschwanke zwischen\b|\b(?:ist|sind) noch offen\b",
    r"\b(?:pas encore|pas) (?:decide|sur,? si|sure,? si)\b|\bje ne sais pas (?:encore )?si\b|\bj'hesite\b|"
    r"\bquestion ouverte\b|\bpas encore tranche\b",
    r"\b(?:no he|todavia no he|aun no he|no hemos) decidido\b|\bno se (?:todavia |aun )?si\b|\bdudo entre\b|"
    r"\bno estoy segur[oa] (?:de )?si\b|\bpregunta abierta\b|\btodavia no lo (?:se|tengo claro)\b",
)
DECISION = any_of(
    r"\b(?:i|we)(?:'ve| have)? (?:finally )?(?:decided|chose|chosen|picked|settled on|went with|agreed|opted)\b|"
    r"\b(?:i|we)(?:'re| are| am|'m) (?:going|sticking|staying) with\b|\b(?:i|we)(?:'ll| will) (?:go|stick) with\b|"
    r"\b(?:our|my|the) decision\b|^decision\b|\bfrom now on\b|\bgoing forward\b|\blet's go with\b",
    r"\b(?:entschieden|beschlossen|entscheidung|festgelegt|vereinbart|abgemacht)\b|\bab (?:sofort|jetzt)\b|"
    r"\bvon nun an\b|\bwir nehmen\b|\bwir bleiben bei\b",
    r"\b(?:decide|decidons|decision|choisi|opte|tranche|convenu)\b|\bdesormais\b|\bdorenavant\b|"
    r"\ba partir de (?:maintenant|la semaine prochaine|demain|lundi|ce mois)\b|\bon part sur\b|\bon garde\b|"
    r"\bon passe (?:de|a|sur)\b|\bnous passons (?:de|a)\b",
    r"\b(?:decidi|decidimos|decidido|decision|elegimos|elegi|elegido|escogimos|escogido|optamos|acordamos|"
    r"quedamos en)\b|\ba partir de ahora\b|\bde ahora en adelante\b|\bnos quedamos con\b|\bvamos con\b",
)
# Strong limits win over a plan said beside them ("budget is 18,000 max, and it has to be done by May").
HARD_CONSTRAINT = any_of(
    r"\b(?:i|we) (?:can't|cannot|can not|mustn't|must not|am not allowed|are not allowed|never)\b(?! stand\b)|"
    r"\b(?:can't|cannot|can not) (?:have|eat|drink|do|use|take|work)\b|\ballergic\b|\bintolerant\b|"
    r"\bc(?:o)?eliac\b|\bbudget\b|\bdeadline\b|\bat most\b|\bno more than\b|\bmax(?:imum)?\b|\bat the latest\b|"
    r"^(?:team |house |our )?rule\b|\bdon't ever\b|\bdo not ever\b|^never\b|\b(?:rate )?limits?\b|\bplease no\b",
    r"\b(?:ich|wir) (?:kann|konnen|darf|durfen)\b[^.;]*?\b(?:kein|keine|keinen|nicht|nie)\b|\ballergisch\b|"
    r"\bunvertraglich|\bintoleranz\b|"
    r"\bzoliakie\b|\bbudget\b|\bhochstens\b|\bmaximal\b|\bspatestens\b|\bdarf nicht\b|\bdurfen nicht\b|"
    r"^(?:nie|niemals)\b|^regel\b|\bbitte keine?\b|\b(?:limit|grenze|obergrenze)\b",
    r"\b(?:je|on|nous) (?:ne )?(?:peux|peut|pouvons) (?:pas|jamais)\b|\ballergique\b|\bintolerant|"
    r"\bc(?:o)?eliaque\b|\bbudget\b|\bau maximum\b|\bau plus tard\b|\bpas plus de\b|\binterdit\b|^jamais\b|"
    r"^regle\b|\blimite\b",
    r"\bno (?:puedo|podemos)\b|\balergic[oa]s?\b|\bintolerante\b|\bceliac[oa]\b|\bpresupuesto\b|\bcomo maximo\b|"
    r"\bcomo muy tarde\b|\bno mas de\b|\bprohibido\b|^nunca\b|^regla\b|\blimite\b",
    r"^(?:no|pas de|nada de|keine?|kein) \w+ (?:on|after|before|in|during|at|until|without|le|la|les|avant|apres|"
    r"antes|despues|am|vor|nach|im|el|los|entre|por)\b",
)
SOFT_CONSTRAINT = any_of(
    r"\b(?:has to|have to|needs to|must)\b",
    r"\b(?:muss|mussen)\b",
    r"\b(?:il faut|doit|doivent)\b",
    r"\b(?:tiene que|tienen que|debe|deben|hay que)\b",
)
APPOINTMENT = re.compile(
    r"\b(?:appointment|appt|meeting|dentist|doctor|checkup|check-up|flight|train|interview|exam|surgery|"
    r"due|termin\w*|\w*termin|zahnarzt\w*|arzt|flug|vorstellungsgesprach|prufung|besprechung|frist|fallig|abgabe|"
    r"rendez-vous|rdv|dentiste|medecin|vol|entretien|examen|reunion|echeance|date limite|a rendre|cita|"
    r"dentista|medico|vuelo|entrevista|plazo|fecha limite|entrega|tutoria)\b"
)
# What the person wants to reach: named as a goal, or wanted by a time (then it is a goal, not a chore).
GOAL_NAMED = re.compile(
    r"\b(?:my|our) (?:goal|aim|target)\b|^goal\b|\b(?:mein|unser) ziel\b|^ziel\b|\b(?:mon|notre) objectif\b|"
    r"^objectif\b|\b(?:mi|nuestro|nuestra) (?:objetivo|meta)\b|^(?:objetivo|meta)\b"
)
GOAL = any_of(
    r"\b(?:i|we) (?:really )?(?:want|hope|aim) to\b",
    r"\b(?:ich|wir) (?:will|wollen|mochte|mochten)\b",
    r"\b(?:je veux|je voudrais|on veut|nous voulons)\b",
    r"\b(?:quiero|queremos|me gustaria)\b",
)
PLAN = any_of(
    r"\b(?:i|we) (?:really )?(?:need to|have to|must|will|plan to|should|intend to)\b|\b(?:i|we)'ll\b|"
    r"\b(?:i'm|we're|i am|we are) (?:going to|moving|going|flying|leaving|starting|getting|having|visiting|"
    r"traveling|travelling|heading|driving|taking|planning)\b|^(?:todo|to do|next step|reminder)\b|^going to\b|"
    r"\bneed to\b",
    r"\bich (?:muss|werde|plane|sollte)\b|\bwir (?:mussen|werden|planen|ziehen|fahren|fliegen)\b|"
    r"\bich (?:ziehe|fahre|fliege|fange|beginne)\b|^(?:nachster schritt|todo)\b",
    r"\b(?:je dois|je vais|je compte|je prevois|il faut que je|il faut qu'on|on doit|on va|nous allons|je pars|"
    r"on part|nous partons|on demenage|je demenage|je commence|je reserve)\b|^(?:prochaine etape|a faire)\b",
    r"\b(?:tengo que|voy a|vamos a|pienso|planeo|debo|hay que|empiezo|empezamos|nos mudamos|me mudo|"
    r"me voy|nos vamos|viajo|viajamos)\b|^(?:siguiente paso|proximo paso|pendiente)\b",
)
PREFERENCE = any_of(
    r"\b(?:i|we) (?:really |strongly |much |definitely |honestly )?(?:prefer|like|love|hate|dislike|enjoy|"
    r"can't stand|don't like|do not like|would rather)\b|\b(?:i|we)'d rather\b|\bmy favou?rite\b|"
    r"\bi'm (?:a fan of|not a fan of|into)\b|\b(?:i'm|i am|we're|we are) (?:happy|fine|content) with\b|"
    r"\bno need to (?:suggest|look for|propose|recommend)\b|\bi feel strongly\b",
    r"\b(?:ich|wir) (?:\w+ )?(?:lieber|bevorzuge|bevorzugen|mag|mogen|liebe|lieben|hasse|hassen)\b|\blieblings|"
    r"\bam liebsten\b|\bich \w+ gerne?\b|\b(?:mag|liebe|hasse) ich\b|\bmogen wir\b|\bbin zufrieden mit\b",
    r"\b(?:je|j'|on|nous) ?(?:prefere|preferons|aime|aimons|adore|adorons|deteste|detestons)\b|"
    r"\bn'aime pas\b|\bprefere[es]?\b|\bplutot que\b|\bje suis content\w* (?:de|avec)\b|\bpas besoin de\b",
    r"\b(?:prefiero|preferimos|me gusta|me gustan|me encanta|me encantan|odio|no me gusta|no soporto)\b|"
    r"\bfavorit[oa]s?\b|\bestoy content[oa] con\b|\bno hace falta\b",
)
# A habit: what the person does again and again ("every Friday I ...", "I always ...").
HABIT = any_of(
    r"\b(?:i|we) (?:\w+ )?(?:always|usually|normally|regularly)\b|\b(?:i|we) \w+ .*\b(?:every|each) (?:day|morning|"
    r"evening|night|week|weekend|month|year|" + WEEKDAYS + "|" + MONTHS + r")\b|^(?:every|each) \w+",
    r"\b(?:ich|wir) (?:\w+ )?(?:immer|meistens|regelma(?:ss|ß)ig|normalerweise)\b|^(?:jeden|jede|jedes) \w+|"
    r"\b(?:jeden|jede|jedes) (?:tag|morgen|abend|woche|monat|jahr|" + WEEKDAYS + r")\b",
    r"\b(?:je|j'|on|nous) (?:\w+ )?(?:toujours|d'habitude|regulierement)\b|\b(?:chaque|tous les|toutes les) "
    r"(?:jours|jour|matins|soirs|semaines|semaine|mois|" + WEEKDAYS + r")\b",
    r"\b(?:siempre|normalmente|habitualmente)\b|\b(?:cada|todos los|todas las) (?:dias|dia|mananas|noches|semanas|"
    r"semana|mes|meses|" + WEEKDAYS + r")\b",
)
FAILED_APPROACH = any_of(
    r"\b(?:didn't|did not|doesn't|does not|never) (?:fix|help|solve|work|change)\b|\bmade (?:it|things) worse\b",
    r"\bnicht (?:behoben|geholfen|gelost|funktioniert)\b|\bhat nichts gebracht\b",
    r"\bn'a (?:pas|rien) (?:regle|resolu|aide|change|marche)\b|\bn'a servi a rien\b",
    r"\bno (?:funciono|sirvio|arreglo|soluciono|ayudo)\b",
)
SUCCESSFUL_APPROACH = any_of(
    r"\b(?:what (?:finally )?(?:fixed|solved|worked)|did the trick|fixed it|solved it|got it fixed)\b|"
    r"\bfrom \d+ ?\w* to \d+ ?\w*\b",
    r"\b(?:hat geholfen|hat es gelost|hat funktioniert|hat es behoben)\b",
    r"\b(?:a fait passer|a resolu|a regle|a marche|a fonctionne)\b",
    r"\b(?:funciono|lo arreglo|lo soluciono|sirvio)\b",
)
DISCOVERY = any_of(
    r"\b(?:turns out|turned out|it turns out|found out|i learned|we learned|i discovered|we discovered)\b",
    r"\b(?:stellt sich heraus|stellte sich heraus|herausgefunden|festgestellt)\b",
    r"\b(?:il s'avere|il s'est avere|j'ai decouvert|on a decouvert|d'apres le test)\b",
    r"\b(?:resulta que|descubri|descubrimos|me entere)\b",
)
PROJECT_STATE = any_of(
    r"\b(?:i'm|i am|we're|we are) (?:working on|migrating|rewriting|refactoring|redesigning|launching|shipping)\b|"
    r"\bwe (?:shipped|launched|released|migrated)\b|\b(?:is|are) (?:live|in (?:private |public )?beta|in production|"
    r"on hold|blocked|paused)\b",
    r"\bwir (?:arbeiten an|migrieren)\b|\bich arbeite an\b|\bist (?:live|in betrieb|pausiert|in der beta)\b",
    r"\b(?:on|nous) (?:travaill\w* sur|migr\w*)\b|\bje travaille sur\b|\best en (?:prod|production|beta|pause)\b",
    r"\b(?:estamos|estoy) (?:trabajando en|migrando)\b|\besta en (?:produccion|beta|pausa)\b",
)
PROJECT = any_of(
    r"\b(?:i'm|i am|we're|we are) (?:building|developing|writing|organi[sz]ing|making|creating|planning) (?:a|an|"
    r"our|my)\b|\bmy (?:phd|thesis|novel|book|dissertation|side project|startup) is\b|\bis (?:our|my) (?:internal )?"
    r"(?:tool|app|project|product|service|startup)\b",
    r"\b(?:ich|wir) (?:baue|bauen|entwickle|entwickeln|schreibe|organisiere|organisieren) (?:ein|eine|einen)\b|"
    r"\bmeine (?:doktorarbeit|dissertation|masterarbeit)\b",
    r"\b(?:je|on|nous) (?:construi\w*|developp\w*|ecri\w*|organis\w*) (?:un|une)\b|\bma these\b",
    r"\b(?:estoy|estamos) (?:construyendo|desarrollando|escribiendo|organizando) (?:un|una)\b|\bmi tesis\b",
)
_PASSING = r"question|problem|issue|code|error|output|bug|script|function|test|app|query|file|point|guess|idea|answer"
_KIN = (
    r"wife|husband|partner|son|daughter|kid|kids|child|children|mum|mom|mother|dad|father|brother|sister|dog|cat|"
    r"boss|manager|team|family|parents|grandma|grandpa|landlord|doctor|neighbou?r|girlfriend|boyfriend"
)
FACT = any_of(
    r"\bi (?:live|work|grew up|was born|study|teach|use|drive|ride|own|joined|carry|speak)\b|\bwe (?:live|rent|own|"
    r"use|speak)\b|\bi(?:'m| am) (?:a|an) (?!(?:bit|little|lot)\b)[\w-]+|\bi(?:'m| am) (?:vegetarian|vegan|"
    r"pescatarian|married|single|divorced|retired|self-employed|freelance|left-handed|right-handed|based in|from|"
    r"half|originally)\b|\b(?:i|we) have (?:a|an|one|two|three|four|\d+) (?:kids?|children|sons?|daughters?|dogs?|"
    r"cats?|brothers?|sisters?|partner|wife|husband|grandchildren)\b|\bmy (?!(?:" + _PASSING + r")\b)(?:[\w-]+ )"
    r"{1,3}(?:is|are)\b|\b(?:my|our) (?:" + _KIN + r"|name|job|company|employer|birthday|house|flat|apartment)\b|"
    r"\b(?:mum|mom|dad|wife|husband|partner|sister|brother)'s\b|\b(?:got|was|been) diagnosed\b|\bi owe\b",
    r"\bich (?:wohne|lebe|arbeite|studiere|unterrichte|komme aus|benutze|nutze|verwende|spreche)\b|\bich bin "
    r"(?:ein |eine )?(?:vegetarier\w*|veganer\w*|verheiratet|selbststandig|freiberufler\w*|rentner\w*|halb)\b|"
    r"\bich habe (?:einen|eine|ein|zwei|drei|\d+) (?:kind|kinder|sohn|sohne|tochter|hund|katze|bruder|schwester)"
    r"\w*\b|\b(?:mein|meine|unser|unsere) (?:[\w-]+ ){1,2}(?:ist|sind|hei(?:ss|ß)t|hei(?:ss|ß)en|liegt|liegen|"
    r"arbeitet|geht)\b|"
    r"\b(?:mein|meine|meinem|meiner|unser|unsere) (?:frau|mann|partner\w*|sohn|tochter|kind\w*|mutter|vater|bruder|"
    r"schwester|hund|katze|chef\w*|familie|eltern)\b|\bdiagnostiziert\b",
    r"\b(?:j'habite|je vis|je travaille|j'ai grandi|je suis ne|j'etudie|j'enseigne|j'utilise|je parle)\b|\bje suis "
    r"(?:vegetarien\w*|vegan\w*|marie\w*|independant\w*|retraite\w*|a moitie|originaire)\b|\bj'ai (?:un|une|deux|"
    r"trois|\d+) (?:enfants?|fils|filles?|chiens?|chats?|freres?|soeurs?)\b|\b(?:mon|ma|mes|notre|nos) "
    r"(?:[\w'-]+ ){1,3}(?:est|sont|s'appelle|s'appellent)\b|\b(?:mon|ma|mes) (?:femme|mari|compagne?|conjoint\w*|"
    r"fils|fille|enfants?|mere|pere|frere|soeur|chien|chat|chef\w*|famille|parents)\b|\bdiagnostique\b",
    r"\b(?:vivo|trabajo|estudio|creci|naci|uso|hablo|debo \d)\b|\bsoy (?:vegetarian[oa]|vegan[oa]|celiac[oa]|"
    r"autonom[oa]|casad[oa]|jubilad[oa]|de \w+|medio)\b|\btengo (?:un|una|dos|tres|\d+) (?:hij[oa]s?|perr[oa]s?|"
    r"gat[oa]s?|herman[oa]s?)\b|\b(?:mi|mis|nuestro|nuestra) (?:[\w-]+ ){1,3}(?:es|son|se llama|se llaman)\b|"
    r"\b(?:mi|mis) (?:mujer|esposa|marido|esposo|pareja|hij[oa]s?|madre|padre|herman[oa]s?|perr[oa]|gat[oa]|jef[ea]|"
    r"equipo|familia|padres)\b|\bdiagnosticaron\b|\bestoy en libertad\b",
)
