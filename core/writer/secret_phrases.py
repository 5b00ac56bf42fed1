"""Secrets said in a sentence, in the languages memvault claims (English, German, French, Spanish).

Each family is a keyword ("password", "Türcode", "mot de passe", "código de la alarma"),
at most five words of filler, a connector ("is", ":", "ist", "est", "es") and a value.
A password's value is a secret unless it is a word that talks *about* the password
("the password is stored in ...", "is too short"); a code's value must hold digits.
Patterns run on folded text (see `secret_text.fold`).
"""

from __future__ import annotations

import re

_FILLER = r"(?:[\s,;]+(?:[^\s.!?:=]+)){0,6}?"
_CONNECTOR = (
    r"(?:\s*[:=>]+|\s*-+>|\s+[-\u2013\u2014]+\s|\s+(?:is|was|are|were|reads|be|remains|now|became|becomes|wurde"
    r"|devient|changed\s+to|(?:is\s+)?set\s+to|ist|war|lautet|sind|heißt|heisst|est|était|sont|es|era|son|será|sería|c'est"
    r"|(?:opens|unlocks|disarms|arms|opened|unlocked)\s+with|öffnet\s+mit|s'ouvre\s+avec|se\s+abre\s+con)\b)"
    r"\s*(?:now\s+|jetzt\s+|nun\s+|maintenant\s+|ahora\s+)?[\"'\u201c\u2018\u00ab\u201e]?"
)

# Words that name a password (not a password).
_PW_WORDS = (
    r"passwords?|passwd|pass\s?phrase|passcode|pass\s?word|master\s+password|pin(?:\s*(?:code|number|nummer))?"
    r"|pincode|wi-?fi\s+key|wlan[\s-]?(?:schlüssel|schluessel|key|passwort)|network\s+key|wpa2?\s+key"
    r"|passwort|kennwort|geheimzahl|losungswort|mot\s+de\s+passe|mdp|code\s+pin|code\s+secret|clé\s+(?:wi-?fi|wpa)"
    r"|contraseñas?|contrasenas?|clave(?:\s+(?:del?\s+)?(?:wi-?fi|red|acceso))?|código\s+(?:pin|secreto)"
)
# Words that can follow "password is" without being the password.
_ABOUT = (
    "the a an in on at of to for from by with via inside under behind written stored saved kept shared managed"
    " synced set reset changed updated rotated expired expiring weak strong long short too very not no never always"
    " same different required needed mandatory optional case-sensitive easy hard simple complex secure insecure"
    " unknown forgotten lost missing wrong correct incorrect new old default generated random unique also still"
    " only just my your his her our their its this that these those one something nothing what how where when"
    " there here printed taped managed handled protected locked blocked disabled enabled emailed sent texted"
    " known remembered available listed noted mentioned given being getting going must should will can cannot"
    " at least one two three four five six seven eight nine ten twelve digits characters letters"
    " der die das ein eine im in auf unter hinter bei mit zu zum zur nicht kein keine sehr zu zu lang kurz"
    " gespeichert geändert abgelaufen neu alt sicher unsicher falsch richtig gleich anders mein meine sein"
    " le la les un une dans sur sous chez avec pas trop très long court enregistré changé expiré nouveau"
    " ancien sûr faux correct même différent mon ma mes son sa"
    " el la los las un una en sobre bajo con no muy demasiado largo corto guardada guardado cambiada cambiado"
    " caducada nueva nuevo vieja viejo segura seguro incorrecta correcta misma mismo diferente mi mis su"
).split()
_NOT_ABOUT = r"(?!(?:" + "|".join(sorted({re.escape(w) for w in _ABOUT}, key=len, reverse=True)) + r")(?:[\s.,;!?]|$))"
# Compounds that name a thing around passwords, not a password ("password manager is Bitwarden").
_COMPOUND = (
    r"(?![\s-]*(?:manager|managers|policy|policies|reset|resets|hint|hints|rule|rules|requirements?|field|strength"
    r"|change|changes|expiry|prompt|vault|generator|protection|protected|less|recovery|length|history|login"
    r"|verwaltung|manager|richtlinie|gestionnaire|oublié|gestor|olvidada|code\b))"
)
_PASSWORD = re.compile(
    rf"\b(?:{_PW_WORDS})\b{_COMPOUND}{_FILLER}{_CONNECTOR}{_NOT_ABOUT}[^\s]{{3,}}",
    re.IGNORECASE,
)
_PASSWORD_SET_TO = re.compile(
    rf"\b(?:set|changed|switched|updated|reset)\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+)?(?:[^\s.!?]+\s+){{0,3}}?"
    rf"(?:{_PW_WORDS})\s+to\s+{_NOT_ABOUT}[^\s]{{3,}}",
    re.IGNORECASE,
)
_QUOTED_PASSWORD = re.compile(
    rf"\b(?:{_PW_WORDS})\b{_COMPOUND}[^.!?]{{0,40}}?[\"'\u201c\u2018\u00ab\u201e][^\"'\u201d\u2019\u00bb\u201c\s]{{3,40}}[\"'\u201d\u2019\u00bb\u201c]",
    re.IGNORECASE,
)
_QUOTED_PASSPHRASE = re.compile(
    r"\b(?:pass\s?phrase|passphrase|phrase\s+secrète|frase\s+(?:de\s+paso|secreta|de\s+contraseña)|passsatz)\b"
    r"[^.!?\"'\u201c\u2018\u00ab\u201e]{0,40}?[\"'\u201c\u2018\u00ab\u201e][^\"'\u201d\u2019\u00bb\u201c]{8,80}[\"'\u201d\u2019\u00bb\u201c]",
    re.IGNORECASE,
)
# An e-mail address and what follows a slash or a bar: a login written as the sign-in form wants it.
_EMAIL_AND_PASSWORD = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:/|\||\s-\s)\s*(?=\S*\d|\S*[A-Z]\S*[a-z]|\S*[a-z]\S*[A-Z])\S{6,}"
)
_SHORT_PASSWORD = re.compile(r"(?<![\w/])(?:pw|pwd|pword|pass|mdp|kw)\s*[:=]\s*\S{3,}", re.IGNORECASE)
_CREDENTIAL_PAIR = re.compile(
    r"\b(?:login|log-in|logins|credentials|creds|user(?:name)?\s*(?:/|and|&|\+)\s*pass(?:word)?|zugangsdaten"
    r"|anmeldedaten|identifiants|usuario\s+y\s+contraseña|credenciales)\b"
    rf"{_FILLER}{_CONNECTOR}{_NOT_ABOUT}\S+\s*(?:/|\||:|,|\band\b|\bund\b|\bet\b|\by\b)\s*\S{{3,}}"
    r"|\b(?:user(?:name)?|benutzer(?:name)?|utilisateur|usuario)\s*[:=]?\s*(?!(?:and|und|et|y|or|oder|ou|o)\b)\S+[\s,;]+"
    rf"(?:pass(?:word)?|pw|pwd|passwort|mot\s+de\s+passe|contraseña)\s*[:=]?\s*{_NOT_ABOUT}\S{{3,}}",
    re.IGNORECASE,
)

# Codes that open something or prove who you are: their value holds digits.
_CODE_WORDS = (
    r"(?:door|gate|alarm|safe|lock|garage|keypad|entry|access|locker|padlock|bike\s+lock|lockbox|key\s*box"
    r"|key\s+safe|intercom|building\s+door|front\s+door|storage|vault|wall\s+safe|security|verification|2fa"
    r"|two-factor|one[- ]time|login|sms|auth(?:entication)?|confirmation|recovery|backup|emergency|scratch"
    r"|unlock|disarm|arming|phone\s+unlock|screen\s+lock|sim)\s+(?:codes?|pins?|combination|number)"
    r"|combination|combo|otp|cvv|cvc|tan|key\s+safe|lockbox|key\s*box|keypad|padlock|locker|intercom|alarm(?:\s+panel)?"
    r"|recovery\s+keys?"
    r"|türcodes?|torcodes?|alarmcodes?|tresorcodes?|safecodes?|zugangscodes?|haustürcodes?|zahlencodes?|kombination"
    r"|zahlenschloss|schlüsselsafe|entsperrcodes?|bestätigungscodes?|verifizierungscodes?|einmalcodes?"
    r"|sicherheitscodes?|wiederherstellungscodes?|wiederherstellungsschlüssel|backup-codes?|notfallcodes?"
    r"|digicode|code\s+(?:de\s+la\s+porte|d'entrée|d'accès|de\s+l'alarme|alarme|du\s+coffre(?:-fort)?|du\s+cadenas"
    r"|portail|de\s+vérification|de\s+confirmation|à\s+usage\s+unique|de\s+sécurité|de\s+déverrouillage)"
    r"|codes?\s+de\s+(?:récupération|secours)|clé\s+de\s+récupération|combinaison"
    r"|códigos?\s+(?:de\s+(?:la\s+)?(?:puerta|entrada|acceso|alarma|caja\s+fuerte|verificación|confirmación"
    r"|seguridad|desbloqueo|recuperación|respaldo)|del\s+(?:candado|portal|portón))|combinación"
    r"|clave\s+de\s+recuperación"
    # One-time codes by how they came ("el código que me llegó por sms", "le code reçu par SMS").
    r"|código\s+que\s+me\s+(?:llegó|ha\s+llegado|han\s+enviado|mandaron|enviaron)(?:\s+por\s+sms)?|código\s+(?:por\s+)?sms"
    r"|code\s+(?:reçu|envoyé|qu'on\s+m'a\s+envoyé)(?:\s+par\s+sms)?|code\s+(?:par\s+)?sms|sms-?codes?|sms-?tan|m-?tan"
    r"|push-?tan|(?:hotel\s+|room\s+)?safe(?:\s+in\s+(?:the|my|our)\s+(?:hotel\s+)?room)?"
)
_CODE_VALUE = r"[#*]?(?=[\w#*-]*\d[\w#*-]*\d[\w#*-]*\d)[\w#*-]{3,}"
# Right after the keyword, with no connector, only a number reads as the code ("alarm code 1234#").
_BARE_DIGITS = r"[#*]?(?=(?:[\d#*\-]*\d){3})\d[\d#*\-]*(?![\w])"
_CODE = re.compile(
    rf"\b(?:{_CODE_WORDS})\b(?:{_FILLER}{_CONNECTOR}{_CODE_VALUE}|\s*#?\s*{_BARE_DIGITS})",
    re.IGNORECASE,
)
# Recovery and backup codes are letters and digits, often listed with no connector.
_RECOVERY_CODES = re.compile(
    r"\b(?:recovery|backup|scratch|emergency|2fa|mfa)\s+(?:codes?|keys?)\b[\s:#]+"
    r"(?=[\w-]*\d)[\w-]{4,}",
    re.IGNORECASE,
)
# "the code for the storage unit is 7731" (but not a zip, area, error or promo code).
_GENERIC_CODE = re.compile(
    r"(?<!zip )(?<!area )(?<!postal )(?<!post )(?<!country )(?<!dial )(?<!error )(?<!status )(?<!promo )"
    r"(?<!discount )(?<!coupon )(?<!tax )(?<!product )(?<!source )(?<!exit )(?<!http )\b(?:code|codes|código|pin)"
    r"\s+(?:for|to|of|für|zum|zur|de|du|del|pour|para)\b"
    rf"{_FILLER}{_CONNECTOR}{_CODE_VALUE}",
    re.IGNORECASE,
)

# A dial's combination: three or more turns, each a direction and the number it stops at ("left 18,
# right 40, left 7", "à droite jusqu'à 14, gauche 32, droite 7"); two are a measurement as often
# ("eye pressure right 18, left 17", "tyre pressure left 32, right 32").
_DIRECTION = r"(?:left|right|links|rechts|gauche|droite|izquierda|derecha)"
_TURN = rf"{_DIRECTION}\b(?:\s+(?:to|auf|bis|jusqu'(?:à|a)|hasta|a|zu))?\s*\d{{1,2}}\b"
_DIAL = re.compile(
    rf"\b{_TURN}(?:[\s,;]+(?:then\s+|dann\s+|puis\s+|luego\s+|and\s+|und\s+|et\s+|y\s+)?"
    rf"(?:(?:turn|dreh\w*|tourn\w*|gir\w*)\s+)?(?:à\s+|a\s+la\s+|nach\s+)?{_TURN}){{2,}}",
    re.IGNORECASE,
)

_ACCOUNT_WORDS = (
    r"account\s+(?:number|no\.?|#)|acct\.?\s*(?:number|no\.?|#)?|routing(?:\s+(?:number|no\.?|#))?|aba|rtn"
    r"|sort\s+code|bank\s+code|bsb|transit\s+number|checking\s+account|savings\s+account"
    r"|kontonummer|konto-?nr\.?|kontonr\.?|blz|bankleitzahl|numéro\s+de\s+compte|n°\s+de\s+compte|rib"
    r"|número\s+de\s+cuenta|nº\s+de\s+cuenta|cuenta\s+bancaria|clabe|número\s+de\s+ruta"
    r"|ssn|social\s+security(?:\s+number)?|sozialversicherungsnummer|numéro\s+de\s+sécurité\s+sociale"
)
_ACCOUNT = re.compile(
    rf"\b(?:{_ACCOUNT_WORDS})(?!\w)(?:{_FILLER}{_CONNECTOR}|[\s:#]+)(?:\d[\s.\-/]?){{5,}}\d",
    re.IGNORECASE,
)

_NAMED_CREDENTIAL = re.compile(
    r"\b(?:api[_ -]?keys?|access[_ -]?keys?|secret(?:[_ -]?key)?|client[_ -]secret|private[_ -]key"
    r"|(?:auth|access|bearer|api|refresh|session)?[_ -]?tokens?|bearer|api-schlüssel|schlüssel|clé\s+(?:d'api|api)"
    r"|jeton|clave\s+(?:de\s+)?api|llave)\b"
    rf"{_FILLER}{_CONNECTOR}(?P<value>(?=[\w\-./+= ]*\d)(?=[\w\-./+=]*[A-Za-z])"
    r"[\w\-./+=]{4,}(?:\s+[\w\-./+=]{4,}){0,4})",
    re.IGNORECASE,
)

_FAMILIES = (
    (
        "password",
        (
            _PASSWORD,
            _PASSWORD_SET_TO,
            _QUOTED_PASSWORD,
            _QUOTED_PASSPHRASE,
            _SHORT_PASSWORD,
            _CREDENTIAL_PAIR,
            _EMAIL_AND_PASSWORD,
        ),
    ),
    ("access or one-time code", (_CODE, _RECOVERY_CODES, _GENERIC_CODE, _DIAL)),
    ("account or routing number", (_ACCOUNT,)),
)


def phrase_secrets(folded: str) -> list[str]:
    """The classes of secret said in words in `folded` text."""
    found = [name for name, patterns in _FAMILIES if any(p.search(folded) for p in patterns)]
    named = _NAMED_CREDENTIAL.search(folded)
    if named and sum(c.isalnum() for c in named.group("value")) >= 12:
        found.append("credential")
    return found
