"""Words that say what a value in a sentence is for, in English, German, French and Spanish.

The secret head (secrets.py) reads each value with the words around it, these families marked
(word_families.py). They name kinds of things (a credential, a lock, getting in; a ticket, a port,
a flight), not our sentences; the head's weights on them are learned on the tuning part of
tests/writer_eval.
"""

from __future__ import annotations

from memvault.core.writer.value_shapes import PLACEHOLDER, value_windows
from memvault.core.writer.word_families import WordFamilies

FAMILIES = WordFamilies(
    {
        # Numbers that name, count or locate something: not credentials (first: "code postal" is no code).
        "other": r"status|http|country code|area code|dialling code|\w*vorwahl|indicatif|prefijo|postal code"
        r"|promo\w*|discount\w*|coupon\w*|voucher\w*|rabatt\w*|gutschein\w*|cupón|ending in|endet auf"
        r"|se termine par|termina en|last four|letzten vier|quatre derniers|últimos cuatro|called|named|heißt|heisst"
        r"|nennt\w*|s'appelle|appel[ée]e?s?|se llama|llamad[oa]s?|post ?code\w*"
        r"|zip ?code\w*|postleitzahl\w*|plz|code postal|código postal|port|ports|desk|seat|platform|floor"
        r"|table|flat|apartment|unit|schreibtisch|sitz\w*|gleis|stock|etage"
        r"|wohnung|siège|quai|étage|appartement|escritorio|asiento|andén|planta|piso|mesa|ticket\w*|issue\w*|bug\w*"
        r"|extension\w*|durchwahl\w*|poste\b|extensi\w+"
        r"|flight\w*|flug\w*|vol\b|vuelo\w*|tracking\w*|sendung\w*|suivi|seguimiento|exit|error\w*|fehler\w*"
        r"|erreur\w*|rate|limit\w*|request\w*|anfrage\w*|requête\w*|petici\w+|room\w*|zimmer\w*"
        r"|version\w*|release\w*|build\w*|sha\w*|hash\w*|checksum\w*|commit\w*|invoice\w*|rechnung\w*|factur\w*"
        r"|order\w*|bestell\w*|commande\w*|pedido\w*|phone number|telefon\w*|teléfono\w*|hotline|service"
        r"|days?|tage?n?|jours?|días?|dias?|months?|monat\w*|mois|meses|years?|jahr\w*|ans|años?"
        r"|minutes?|minuten?|minutos?|hours?|stunden?|heures?|horas?|uhr|customers?|kunden|clients?"
        r"|pilot\w*|kg|km|cm|mb|gb|%|euros?|dollars?|percent\w*"
        r"|ms|sec|secs|mins?|h|times?|mal\b|fois|veces|seconds|sekunden|secondes|segundos|steps?|pages?|seiten?"
        r"|calls?|anrufe?",
        # What names a credential.
        "cred": r"passwor\w*|passphrase\w*|passcode\w*|passwd|\w*passwort\w*|\w*kennw\w*|\w*code|\w*codes"
        r"|\w*pin|mdp|mot de passe"
        r"|mots de passe|contrase\w+|clave\w*"
        r"|pin|pins|puk|user ?name\w*|benutzer\w*|utilisateur\w*|usuario\w*|admin|account\w*|konto\w*|compte\w*"
        r"|cuenta\w*|pincode|geheimzahl|login\w*|logins?|identifiant\w*|zugang\w*|acceso|credential\w*"
        r"|key\b|keys\b|schlüssel\w*|schluessel\w*|clé\w*|cle\b|token\w*|jeton\w*|secret\w*|geheim\w*|secreto\w*"
        r"|wi-?fi|wlan|code\w*|código\w*|codigo\w*|digicode|combinaci\w+|combinaison\w*|combination\w*"
        r"|kombination\w*|tan\b|otp\b|sms|cvv|cvc|crypto\w*|prüfziffer|iban|seed|phrase",
        # A lock, a door, an alarm: something a code opens.
        "lock": r"door\w*|gate\w*|garage\w*|alarm\w*|safe\b|locker\w*|padlock\w*|keypad\w*|key ?box\w*|lock\w*"
        r"|building|portal\w*|entry|\w*tür\w*|\w*tor|\w*tores|\w*schloss\w*|schlösser|tresor\w*|spind\w*"
        r"|zahlenschloss\w*"
        r"|schlüsselkasten\w*|haustür\w*|porte\w*|portail\w*|cadenas|coffre\w*|casier\w*|alarme\w*|interphone"
        r"|puerta\w*|candado\w*|caja fuerte|taquilla\w*|alarma\w*|portero|unlock\w*|entsperr\w*|déverrouill\w*"
        r"|desbloque\w*|bloqueo|key ?safe\w*|lockbox\w*|schlüsselbox\w*|schlüsseltresor\w*|boîte à clés?"
        r"|boite à clés?|cajet[íi]n\w*|caja de llaves"
        r"|sim|card\w*|karte\w*|carte\w*|tarjeta\w*|bank|banks|banque|banco|banking"
        r"",
        # Getting in with it.
        "enter": r"press|presses|pressed|pressing|dial|dials|dialed|dialled|dialing|dialling|enter|enters|entered"
        r"|entering|type|types|typed|typing|punch\w*|key in|put in|opens?\b|open with|join\w*|log ?in\w*"
        r"|sign ?in|get in|let in|tipp\w*|eingeb\w*|drück\w*|wähl\w*|geht mit|öffnet|anmeld\w*|einlogg\w*"
        r"|tape[rsz]?\b|tapez|compos\w*|s'ouvre|ouvr\w*|connect\w*|entr\w*|marca\w*|teclea\w*|abre\w*|conect\w*"
        r"|valid\w*|verif\w*|vérif\w*|bestätig\w*|confirm\w*|authori[sz]\w*|autori[sz]\w*|melde|einlogg\w*"
        r"|remember\w*|merk\w*|retien\w*|retenir|guarda\w*|apunta\w*",
    }
)


# Shapes that look random enough to be a password or key whatever the words around them say.
_RANDOM_LOOKING = frozenset({"mixeds", "mixedl", "mixedsl", "taggedsl", "symbols", "camels"})
_OPENING = frozenset({"cred", "lock", "enter"})


def _could_open(window: str) -> bool:
    """A value that looks random, or any value beside words of credentials, locks or getting in: a
    number or a model name alone ("holds 200 litres", "a ThinkPad X1") opens nothing."""
    if _RANDOM_LOOKING.intersection(PLACEHOLDER.findall(window)):
        return True
    return bool(_OPENING.intersection(FAMILIES.found(PLACEHOLDER.sub(" ", window))))


def secret_view(folded: str) -> str:
    """What the secret head reads of a statement: each value that could open something with the words
    around it, families marked, then one token per family a window holds beside the shape it holds.
    Empty when the statement holds no such value (then it holds no credential either)."""
    windows = [window for window in value_windows(folded) if _could_open(window)]
    pairs = sorted(
        {
            f"§{family}-{shape}§"
            for window in windows
            for family in FAMILIES.found(PLACEHOLDER.sub(" ", window))
            for shape in PLACEHOLDER.findall(window)
        }
    )
    return " | ".join(FAMILIES.mark(window) for window in windows) + (" || " + " ".join(pairs) if windows else "")
