"""Words of the sensitive categories (contract revision 4), in English, German, French and Spanish.

The sensitivity head (sensitivity.py) reads a statement with these families marked
(word_families.py) and with who it is about: a condition, a debt or a faith is sensitive when it is
the person's own or their family's ("my therapist", "meine Tochter"), not when it is a book's
subject or a charity's cause. The families follow the contract's list of categories; the head's
weights on them are learned on the tuning part of tests/writer_eval.
"""

from __future__ import annotations

from memvault.core.writer.word_families import WordFamilies

FAMILIES = WordFamilies(
    {
        "health": (
            r"insomni\w*|schlafstörung\w*|hysterectom\w*|mastectom\w*|coeliac|celiac|zöliak\w*|cœliaque|celíac[oa]"
            r"|reha|rééducation|rehabilitaci\w*|\w+therap\w*|\w+allergi\w*|neurolog\w*|sclerosis|sklerose"
            r"|sclérose|esclerosis|stroke|schlaganfall|avc|ictus|infarct\w*|heart attack|herzinfarkt|op"
            r"|radiother\w*|radiotherap\w*|strahlenther\w*|radioterap\w*|blood pressure|blutdruck|cholest\w*"
            r"|self-harm|selbstverletz\w*|automutil\w*|autolesi\w*|suicid\w*|suizid\w*|disab\w*|behinder\w*"
            r"|handicap\w*|discapaci\w*|wheelchair|rollstuhl|fauteuil roulant|silla de ruedas|deaf|gehörlos\w*"
            r"|sourde?s?|hearing aid|hörgerät\w*|neurologue|oncolog\w*"
            r"|cardiolog\w*|gyn\w*|urolog\w*|dermatolog\w*|rheuma\w*|arthrit\w*|arthros\w*|artros\w*|"
            r"in recovery|recovery from|knee|hip|spine|cartilage|ligament\w*|kidney\w*|liver|heart|lung\w*"
            r"|pancrea\w*|bladder|prostat\w*|uter\w*|ovar\w*|endometri\w*|knie|hüfte|niere\w*|leber|herz\w*|lunge\w*"
            r"|genou|hanche|rein\w*|foie|cœur|coeur|poumon\w*|rodilla|cadera|riñ[oó]n\w*|hígado|corazón|pulm[oó]n\w*"
            r"|physio\w*|kiné\w*|fisio\w*|"
            r"diagnos\w*|therap\w*|thérap\w*|terap\w*|psych\w*|medic\w*|médic\w*|medikament\w*|meds|pills?"
            r"|tablett\w*|pastill\w*|cachets?|dose\w*|dosis|prescri\w*|rezept\w*|ordonnance|receta|depress\w*"
            r"|dépress\w*|anxi\w*|ansi\w*"
            r"|angst\w*|panic\w*|panik\w*|pánico|burn-?out|adhd|adhs|tdah|autis\w*|bipolar\w*"
            r"|bipolaire|schizo\w*|ocd|toc|ptsd|trauma\w*|eating disorder|anorex\w*|bulimi\w*|diabet\w*|insulin\w*"
            r"|cancer|krebs|tumou?r\w*|chemo\w*|cáncer|surgery|operation|operiert|opéré\w*|operad\w*|cirug\w*"
            r"|chirurg\w*|hospital\w*|krankenhaus|klinik\w*|hôpital|clinic\w*|clinique|illness|disease|krank\w*"
            r"|maladie|malade|enfermedad|enferm[oa]|sick|syndrom\w*|síndrome|chronic|chronisch\w*"
            r"|chronique|crónic\w*|epilep\w*|asthma|asthme|asma|migraine\w*|migräne|migraña|hiv|vih|hepatitis"
            r"|pregnan\w*|schwanger\w*|enceinte|embarazad\w*|miscarriage|fehlgeburt|fausse couche|aborto"
            r"|infertil\w*|ivf|fiv|rehab|entzug|sucht|addict\w*|alcoholi\w*|alkoholi\w*|alcoolique|sober"
            r"|nüchtern|counsell?or|counsell?ing|shrink|psychiater|psychologue|psicólog\w*"
            r"|mg|\w{3,}(?:mab|pril|sartan|statin|olol|azole|oxetine|pram|zepam|triptan|formin|thyroxine"
            r"|trigine|prazole|cycline|cillin|azepam|afil)|thyroid\w*|schilddrüse\w*|thyroïd\w*|tiroid\w*"
            r"|allerg\w*|intoleran\w*|antidepress\w*|ssri|sertralin\w*|sertraline|lithium|ritalin|methylphenid\w*"
        ),
        "sex": (
            r"she/her|he/him|they/them|pronouns|pronomen|pronoms|pronombres|transition\w*|lgbt\w*|lgbtq\w*"
            r"|csd|my wife and i|ma femme et moi|mi mujer y yo|meine frau und ich|"
            r"i'm bi|ich bin bi|je suis bi|soy bi|i'm ace|out to|"
            r"gay|lesbian\w*|lesb\w*|bisexu\w*|queer|trans|transgender|nonbinary|non-binary|asexual\w*|aromantic\w*"
            r"|schwul\w*|homosexu\w*|hétéro\w*|heterosexu\w*|pansexu\w*|coming out|came out|geoutet"
            r"|outé\w*|salido del armario|sex\w*|sexu\w*|libido|girlfriend|boyfriend|freundin|freund"
            r"|copine|copain|novia|novio|polyam\w*|open relationship|offene beziehung|couple libre|relación abierta"
            r"|kink\w*|dating|tinder|grindr"
        ),
        "faith": (
            r"hajj|umrah|cemevi|tauf\w*|bar mitzvah|bat mitzvah|kommunion|communion|comunión|rosary|rosenkranz"
            r"|chapelet|rosario|imam|priest\w*|priester\w*|prêtre|sacerdote|rabbi|rabbin\w*|rabino|pastor\w*"
            r"|pasteur|vicar|nonne|monja|religieuse|pilgrim\w*|pilger\w*|pèlerinage|peregrina\w*|"
            r"go to mass|to mass|zur messe|à la messe|a misa|en misa|"
            r"church\w*|kirche\w*|église|iglesia|mosque\w*|moschee\w*|mosquée|mezquita|synagog\w*|sinagoga"
            r"|temple|tempel|templo|pray\w*|gebet\w*|prière|oración|faith|glaube\w*|foi"
            r"|religio\w*|relig\w*|god|gott|dieu|dios|muslim\w*|musulm\w*|christ\w*|chrét\w*|cristian\w*"
            r"|cathol\w*|kathol\w*|catól\w*|protestant\w*|evangel\w*|jew\w*|jüd\w*|juif|juive|judí\w*|buddhis\w*"
            r"|bouddh\w*|budis\w*|hindu\w*|hindou\w*|sikh\w*|atheis\w*|athée|ateo|atea|agnost\w*|ramadan|ramadán"
            r"|sabbath|shabbat|sabbat|kosher|koscher|casher|halal|messe|misa|baptis\w*|getauft|taufe"
            r"|baptême|bautiz\w*|convert\w*|konvert\w*|quaker\w*|mormon\w*|jehovah\w*|zeugen jehovas|quran|koran"
            r"|coran|corán|bible|bibel|biblia|confirmation|konfirm\w*|kirchenaustritt|left the church|mandir"
            r"|gurdwara|pagod\w*"
            r"|liturg\w*|gottesdienst\w*|culte|culto|parish|pfarr\w*|paroisse|parroquia|fasting|fasten\w*|jeûn\w*"
            r"|ayun\w*|fastenzeit|carême|cuaresma|yom kippur|eid|diwali|pesach|passover|puja|spiritu\w*"
        ),
        "politics": (
            r"the union|a union|union dues|unionis\w*|unioniz\w*|cse|encarté\w*|syndiqu\w*|sindicad[oa]"
            r"|gewerkschaftlich\w*|picket\w*|petition\w*|petiti\w*|pétition\w*|"
            r"member of the|party member|canvass\w*|vertrauens\w*|ig metall|ver\.di|verdi|cgt|cfdt|ccoo|ugt"
            r"|shop steward|tract\w*|milit\w*|"
            r"party|partei\w*|parti|partido|mitglied\w*|afiliad\w*|adhérent\w*"
            r"|vot\w*|wähl\w*|gewählt|election\w*|elector\w*|electoral|élect\w*|elecci\w*|trade union|labou?r union"
            r"|union member\w*|union rep\w*|gewerkschaft\w*|syndica\w*|sindica\w*"
            r"|shop steward|betriebsrat\w*|delegad\w*|délégué\w*|strike|streik\w*|grève|huelga|protest\w*"
            r"|demonstr\w*|manif\w*|rall(?:y|ies)|labour|labor|tory|tories|conservative\w*"
            r"|liberal\w*|green party|grünen|grüne|verts|verdes|socialis\w*|sozialis\w*|communis\w*"
            r"|kommunis\w*|spd|cdu|csu|fdp|afd|lfi|psoe|vox|podemos|campaign\w*"
            r"|kampagne\w*|campagne\w*|campaña\w*|activis\w*|aktivis\w*|militant\w*"
        ),
        "origin": (
            r"\w+-american\w*|\w+-amerikan\w*|\w+-vietnam\w*|afro-\w+|sinto|sintiza"
            r"|armeni\w*|arméni\w*|kurdish|kurde|kurdo|romani|romnja|gypsy|traveller|pied-noir|"
            r"i'm half|ich bin halb\w*|à moitié|soy medio|soy mitad|on my (?:mum|mom|dad|mother|father)'s side"
            r"|par (?:mon père|ma mère)|por parte de (?:madre|padre)|mütterlicherseits|väterlicherseits|sámi|sami"
            r"|sorb\w*|uyghur|tamil|basque|vasc[oa]|gitan\w*|jenisch\w*|yenish|"
            r"ethnic\w*|ethni\w*|étni\w*|heritage|herkunft|origine\w*|origen"
            r"|descent|abstammung|ascendance|ascendencia|roma|sinti|gitano\w*|kurd\w*|indigenous|indigen\w*"
            r"|aborigin\w*|negr[oa]|latin[oa]|latinx|hispanic|arab\w*|árabe|turkish"
            r"|türkisch\w*|turc|turque|turc[oa]|maghreb\w*|berber\w*|bereber|amazigh|afro\w*|mixed race"
            r"|métis\w*|mestiz\w*|first nations|native american|migrant\w*|migration\w*|immigr\w*|refugee\w*"
            r"|flüchtling\w*|réfugié\w*|refugiad\w*|descendant\w*|\w+-born"
            r"|speak \w+ at home|zu hause sprechen wir|à la maison on parle|en casa hablamos|minorit\w*"
            r"|parents (?:are|were) from|eltern (?:kommen|stammen) aus|parents sont (?:de|originaires)|padres son de"
        ),
        "body_data": (
            r"apoe\w*|leiden|gentest\w*|genetic test\w*|test génétique|prueba genética|palm scan\w*|palm vein\w*"
            r"|handvenen\w*|face scan\w*|iris scan\w*|voiceprint|stimmabdruck|"
            r"gene|genes|genet\w*|génét\w*|dna|adn|dns|brca\w*|träger\w*|porteu\w*|portador\w*"
            r"|mutation\w*|mutaci\w*|allele\w*|biometri\w*|biométri\w*|fingerprint\w*"
            r"|fingerabdr\w*|empreinte\w*|huella\w*|iris|retina\w*|face ?id|gesichtserkennung|handfläche"
            r"|paume|palma|23andme|ancestry|genom\w*|génom\w*|genoma"
        ),
        "crime": (
            r"expunge\w*|ankle tag|on a tag|fußfessel|bracelet électronique|tobillera|curfew|ausgangssperre"
            r"|couvre-feu|contrôle judiciaire|bewährungshelfer\w*|condicional|juzgado\w*|pointer au commissariat"
            r"|sex offender|strafregister|"
            r"months inside|years inside|did time|served time|a caution for|police caution|dbs|criminal record"
            r"|police record|casier judiciaire|antecedentes penales|"
            r"convict\w*|conviction\w*|vorstraf\w*|vorbestraft|verurteil\w*|condamn\w*|conden\w*|criminal"
            r"|kriminal\w*|criminel\w*|casier|antecedentes|führungszeugnis|prison\w*|jail\w*|gefängnis\w*"
            r"|haft\w*|cárcel|prisión|knast|probation|bewährung\w*|sursis|libertad condicional"
            r"|arrest\w*|verhaft\w*|festgenommen|arrêt\w*|detenid\w*|charged|angeklagt|inculpé\w*|acusad\w*"
            r"|gericht\w*|tribunal\w*|juicio|offen[cs]e\w*|straftat\w*|délit\w*|delito\w*"
            r"|fraud\w*|betrug\w*|fraude\w*|theft|diebstahl|robo|shoplift\w*|drink driving"
            r"|drunk driving|trunkenheit\w*|alcoolémie|alcoholemia|assault|körperverletzung|agression|agresión"
            r"|affray|sentenced|community service|sozialstunden|trabajos comunitarios"
        ),
        "money_trouble": (
            r"blacklist\w*|dmp|debt management|creditor\w*|gläubiger\w*|créancier\w*|acreedor\w*"
            r"|collector\w*|breathing space|debt advice|schuldnerberatung|refused credit|"
            r"de retard|months behind|behind on|mise en demeure|mahnung\w*|rent arrears|im rückstand|atrasad[oa]s?|"
            r"debt\w*|schuld\w*|dette\w*|endett\w*|deuda\w*|endeud\w*|arrears|rückstand\w*|rückstände"
            r"|atras\w*|impay\w*|impag\w*|overdraft\w*|overdrawn|überzog\w*|découvert|descubierto"
            r"|inkasso\w*|recouvrement|recobro|bailiff\w*|gerichtsvollzieher\w*|huissier\w*|embarg\w*"
            r"|pfänd\w*|saisie\w*|garnish\w*|bankrupt\w*|insolven\w*|privatinsolvenz|faillite|surendett\w*"
            r"|quiebra|zahlungsunfähig\w*|mahnung\w*|mahnbescheid\w*|schufa"
            r"|fiché\w*|asnef|moros\w*|payday|loan shark|kredithai|usur\w*|behind on|in arrears"
            r"|can't pay|cannot pay|kann nicht zahlen|n'arrive pas à payer|no puedo pagar|broke|pleite|fauché\w*"
            r"|sin blanca|evict\w*|räumung\w*|expuls\w*|expulsión|desahucio\w*|repossess\w*|food bank"
            r"|tafel|banque alimentaire|banco de alimentos|bürgergeld|hartz|paro|chômage|arbeitslos\w*"
            r"|owe|owes|owed|owing|schulde|je dois(?= \d)|debo(?= \d)|crédit conso\w*|kredit\w*|payday loan\w*|prêt\w*"
            r"|préstamo\w*|minicrédit\w*|klarna|ratenzahlung\w*|plan de pago|échéancier"
        ),
        # A child, and what only a child's schooling is called.
        "child": (
            r"bedwetting|bettnässen|énurésie|enuresis|ergother\w*|logopäd\w*|logopèd\w*|logoped\w*|orthophon\w*"
            r"|speech therap\w*|occupational therap\w*|hold (?:\w+ )?back a year|sitzenbleib\w*|redoubl\w*"
            r"|repetir curso|sixth form|11\+|reception class|in reception|ecole|\d[a-e] class|klasse \d\w?|"
            r"son|sons|daughter\w*|kid|kids|child\w*|sohn|söhne|tochter|töchter|kind|kinder|fils|fille|filles"
            r"|enfant\w*|hijo\w*|hija\w*|niñ[oa]s?|crío\w*|little one|baby|bébé|bebé|pediatri\w*|kinderarzt\w*"
            r"|pédiatre|pediatra|kita|kindergarten|nursery|crèche|maternelle|guardería|grundschule|primary school"
            r"|juniors|infants|einschul\w*|rentrée|starts? school|teacher says"
            r"|lehrerin sagt|lehrer sagt|la maîtresse dit|la profe dice|behind in (?:reading|maths|math|school)"
            r"|bullying|mobbing|harcèlement|acoso|iep|förderbedarf|nachhilfe|soutien scolaire|clases particulares"
            r"|dyslex\w*|legasthen\w*|dyslexi\w*|dislexi\w*"
        ),
        # Schooling: in the person's memory, most often a child's.
        "schooling": (
            r"school\w*|\w*schule\w*|schul\w*|école\w*|collège|lycée|escuela\w*|colegio\w*|instituto|cole"
            r"|academy|akademie|gymnasium|secondary|primaire|primaria|secundaria|klasse\w*|zeugnis\w*|förder\w*"
            r"|tutor\w*"
        ),
        "self": (
            r"i|i'm|im|i've|i'd|me|my|mine|myself|ich|mich|mir|mein\w*|je|j'\w*|moi|me|m'\w*|mon|ma|mes"
            r"|yo|mi|mis|me|conmigo|we|our|us|wir|uns|unser\w*|nous|notre|nos|nosotros|nuestr\w*|user's|user"
            r"|nutzer\w*|utilisat\w*|usuari\w*"
        ),
        "impersonal": (
            r"book\w*|novel\w*|buch|bücher|roman\w*|livre\w*|libro\w*|novela\w*|film\w*|movie\w*|documentar\w*"
            r"|podcast\w*|article\w*|artikel\w*|artículo\w*|course\w*|kurs\w*|cours|curso\w*|lecture\w*"
            r"|vortrag\w*|conférence|conferencia|charity|spende\w*|spendenlauf|wohltätig\w*|caritati\w*"
            r"|solidari\w*|benéfic\w*|research|forschung\w*|recherche\w*|investigaci\w*|module\w*|modul\w*"
            r"|feature\w*|ticket\w*|bug\w*|project\w*|projekt\w*|projet\w*|proyecto\w*|client\w*|customer\w*"
            r"|kunde\w*|cliente\w*|history|geschichte|histoire|historia|museum|musée|museo|exhibit\w*"
            r"|ausstellung\w*|exposition\w*|exposición|nurse|krankenpfleger\w*|pflegerin|infirmi\w*|enfermer\w*"
            r"|job|works? as|arbeitet als|travaille comme|trabaja de|trabaja como"
        ),
    }
)


def sensitive_view(folded: str) -> str:
    """What the sensitivity head reads: the statement with its families marked, then the families it
    holds, each beside whether the statement speaks of the person (`self`) or of a thing. Empty when
    it holds no word of any category: then it is not judged sensitive."""
    found = FAMILIES.found(folded)
    if not set(found) - {"self", "impersonal"}:
        return ""
    about = "self" if "self" in found else "other"
    tokens = [f"§{name}-{about}§" for name in found if name not in ("self", "impersonal")]
    if "impersonal" in found:
        tokens.append("§impersonal§")
    # Repeated so that the family tokens weigh against the statement's own n-grams (measured on the
    # tuning part's out-of-fold scores: recall 0.95 takes 14 % of ordinary statements, 36 % without).
    return FAMILIES.mark(folded) + " || " + " ".join(tokens * 4)
