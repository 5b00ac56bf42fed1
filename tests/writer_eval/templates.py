"""Sentence frames for the writer evaluation, per language and class (fillers live in fillers.py).

Written as people type to an assistant in a chat (lower case, asides, "btw", half sentences), and
as an assistant would file a note about them ("User's ..."), deliberately *not* in the shape any
rule of core/writer looks for. Each entry is `(labels, frame)`; `labels` is a short spec:

- `secret`: the statement holds a credential or code that must never be stored;
- `sens=<category>`: a sensitive matter (contract revision 4) to be held for the person's approval;
- `mood`: a passing mood or momentary state, nothing durable;
- `type=<MemoryType>`: the record type of a storable statement (ordinary or sensitive);
- `neg=<class>`: an ordinary statement written to look like that class (a hard negative).

A statement with no `secret`, `sens` or `mood` is ordinary. Template ids are given by position:
`<lang>-<class>-<nn>` (see `all_templates`).
"""

from __future__ import annotations

from dataclasses import dataclass

SENSITIVE_CATEGORIES = (
    "health",  # physical and mental health, medication
    "sex_life_orientation",
    "religion_belief",
    "political_union",  # political opinion and trade union membership
    "ethnic_origin",
    "genetic_biometric",
    "criminal_record",
    "money_trouble",  # debt, arrears, collection
    "child_health_schooling",  # anything about a child's health or schooling
)

# ================================================================================================
# English
# ================================================================================================

EN_SECRET = [
    ("secret", "btw the wifi at {rel[poss]} place is {wifi_name} and the password's {wifi_key}"),
    ("secret", "can you hang on to my {service} login? it's {email} / {password}"),
    ("secret", "garage code is {pin_words}"),
    ("secret", "to get into the building you press {pin_dashed} and then the little bell"),
    ("secret", "For the office alarm, punch in {pin4} and then hit OFF within 30 seconds"),
    ("secret", "my bank card PIN is {pin4}, I always forget it"),
    ("secret", "Here's the key for the {project} prototype, use it in the config: {api_key}"),
    ("secret", "the token starts with {split[head]} and then continues {split[tail]}"),
    ("secret", "I log into the {bank} app with {password}"),
    ("secret", "{rel[cap]} laptop password: {password}"),
    ("secret", "save this for the online shop: card {card}, exp {expiry}, CVC {cvc}"),
    ("secret", "my IBAN is {iban} if you need it for the invoice template"),
    ("secret", "wallet seed (keep it safe!!): {seed}"),
    ("secret", "the code they just texted me is {otp}"),
    ("secret", "{service} backup codes in case I lose my phone: {recovery_codes}"),
    ("secret", "SIM PIN for the new phone is {pin4}, PUK {puk}"),
    ("secret", "the key box by the back door opens on {pin4}"),
    ("secret", "gym locker combination is {combo}"),
    ("secret", "use {password} for the router admin page, username is just admin"),
    ("secret", "For the {project} staging database: user {username}, pass {password}"),
    ("secret", "the AWS access key id is {aws[id]} and the secret is {aws[secret]}"),
    ("secret", "User's {service} password is {password}."),
    ("secret", "User's front door keypad code: {door_code}"),
    ("secret", "The code to switch off the alarm at {place} is {pin4}#"),
    ("secret", "tell {name_f} the door is {door_code} when she gets here on {weekday}"),
    ("secret", "the one-time code for {service}: {otp_spaced}"),
    ("secret", "bearer token for the {project} API (expires in June): {jwt}"),
    ("secret", "the safe in the wardrobe opens with {pin_words}"),
    ("secret", "ssh key passphrase is {password}, don't lose it"),
    ("secret", "If guests ask, the wifi is called {wifi_name} and they need {wifi_key} to join"),
    ("secret", "{wifi_name} / {wifi_key} <- that's the cabin wifi"),
    ("secret", "I changed my phone unlock to {pin6}"),
    ("secret", "remember {password} for the {service} account, I keep resetting it"),
    ("secret", "first half of the {project} deploy key is {split[head]}, second half {split[tail]}"),
    (
        "secret sens=money_trouble type=FACT",
        "my login for the debt advice portal is {email} and the password is {password}",
    ),
    ("secret sens=health type=FACT", "password for the pharmacy app where I order my {med_cond[med]}: {password}"),
]

EN_SENSITIVE = [
    # health
    ("sens=health type=FACT", "I take {med_cond[med]} every morning for my {med_cond[cond]}"),
    ("sens=health type=FACT", "got diagnosed with {condition} back in {month}"),
    ("sens=health type=WORKFLOW", "I've been seeing a therapist every {weekday} since the burnout"),
    ("sens=health type=NEXT_ACTION", "need to book a follow-up with the cardiologist before {month}"),
    ("sens=health type=CONSTRAINT", "User is on {med_cond[med]} and can't drink alcohol."),
    (
        "sens=health type=CONSTRAINT",
        "I'm in recovery from {condition}, so please don't suggest anything with calorie counting",
    ),
    # sex life and orientation
    ("sens=sex_life_orientation type=FACT", "I'm {orientation_en} and out to my family, just not at work"),
    ("sens=sex_life_orientation type=FACT", "{name} and I are in an open relationship"),
    (
        "sens=sex_life_orientation type=CONSTRAINT",
        "don't mention {name_f} when you draft emails to my parents, they don't know I'm {orientation_en}",
    ),
    ("sens=sex_life_orientation type=DECISION", "I've decided to come out to {rel[n]} at Christmas"),
    # religion or belief
    ("sens=religion_belief type=FACT", "I'm a practising {religion[adj]} and I fast during {religion[fast]}"),
    (
        "sens=religion_belief type=CONSTRAINT",
        "no meetings on {religion[day]} mornings please, that's when I go to {religion[place]}",
    ),
    ("sens=religion_belief type=FACT", "I left the church years ago, I'm an atheist now; {name} still goes"),
    ("sens=religion_belief type=FACT", "User was raised {religion[adj]} but no longer practises."),
    # political opinion, union membership
    ("sens=political_union type=FACT", "I'm a member of {party}, I canvass for them most weekends"),
    ("sens=political_union type=FACT", "I'm the rep for {union} at our depot in {city}"),
    ("sens=political_union type=FACT", "voted for {party} last time and I will again"),
    ("sens=political_union type=NEXT_ACTION", "going to the {cause} protest on {weekday}, need to make a sign"),
    # ethnic origin
    ("sens=ethnic_origin type=FACT", "I'm half {half} on my mum's side"),
    ("sens=ethnic_origin type=FACT", "our family is {ethnicity[group]} and we speak {ethnicity[lang]} at home"),
    ("sens=ethnic_origin type=FACT", "User is of {half} descent and sometimes faces questions at border checks."),
    # genetic and biometric
    ("sens=genetic_biometric type=FACT", "my genetic test came back, I carry the {gene} variant"),
    ("sens=genetic_biometric type=DISCOVERY", "turns out from the DNA kit that I'm a carrier for {gen_cond}"),
    ("sens=genetic_biometric type=FACT", "{company} has my palm scan on file for the staff entry gates"),
    ("sens=genetic_biometric type=WORKFLOW", "because of the {gene} result I get screened every year in {month}"),
    # criminal records
    ("sens=criminal_record type=FACT", "I have a conviction for {offence} from {year}, it shows on background checks"),
    ("sens=criminal_record type=FACT", "I'm on probation until {month} next year"),
    ("sens=criminal_record type=FACT", "did {n_small} months inside in my twenties for {offence}"),
    ("sens=criminal_record type=NEXT_ACTION", "I have to declare the {offence} conviction on the visa form"),
    # money trouble
    ("sens=money_trouble type=FACT", "I'm {n_small} months behind on rent and the landlord sent a warning"),
    ("sens=money_trouble type=GOAL", "I owe about {debt} on credit cards and want it paid down by {month}"),
    ("sens=money_trouble type=FACT", "the bailiffs are coming {weekday} about the council tax arrears"),
    ("sens=money_trouble type=CONSTRAINT", "I'm on a debt management plan, so no new credit for a while"),
    ("sens=money_trouble type=FACT", "User defaulted on a payday loan of {debt} and it went to collections."),
    # a child's health or schooling
    ("sens=child_health_schooling type=FACT", "my son {child_m} has {child_cond} and gets extra time in exams"),
    ("sens=child_health_schooling type=FACT", "{child} starts at {school} in September"),
    (
        "sens=child_health_schooling type=DECISION",
        "{child}'s teacher says {child} is behind in reading, so we're getting a tutor",
    ),
    ("sens=child_health_schooling type=NEXT_ACTION", "pick up {child}'s {child_med} from the pharmacy before school"),
    (
        "sens=child_health_schooling type=NEXT_ACTION",
        "{child} is being bullied at school, meeting the head on {weekday}",
    ),
]

EN_MOOD = [
    ("mood", "feeling {mood_tired} {now}"),
    ("mood", "ugh, {intens} {mood_cross} {now}"),
    ("mood", "I'm {mood_good} {now}!"),
    ("mood", "kinda {mood_cross} {now} tbh"),
    ("mood", "bit overwhelmed {now}, sorry if I'm slow to answer"),
    ("mood", "{intens} sleepy {now}"),
    ("mood", "today's been rough, I'm just {mood_tired}"),
    ("mood", "honestly I'm fed up with everything {now}"),
    ("mood", "I feel great {now}, finally slept properly"),
    ("mood", "meh. {mood_low} {now}"),
    ("mood", "I'm {mood_cross} because I skipped lunch"),
    ("mood", "{intens} stressed {now} with this deadline"),
    ("mood", "totally {mood_tired} after {event}"),
    ("mood", "not in the mood for anything {now}, feeling {mood_low}"),
]

EN_ORDINARY = [
    ("type=FACT", "{rel[cap]} flat is in {city}, right by the station"),
    ("type=FACT", "I work as a {job} at {company}"),
    ("type=FACT", "we have {pet[a]} called {pet_name}"),
    ("type=FACT", "User's {project} repository is hosted on a self-managed Gitea at work."),
    ("type=PREFERENCE", "I like answers as {format}, not long essays"),
    ("type=PREFERENCE", "I'd rather take the train than fly for anything under {hours} hours"),
    ("type=PREFERENCE", "I can't stand {food}, please leave it out of any recipes"),
    ("type=PREFERENCE", "{editor} with a dark theme is what I use for everything"),
    ("type=DECISION", "we went with {db} for the {project} backend"),
    ("type=DECISION", "decided: the {project} launch slips to {month}"),
    ("type=DECISION", "I'm going with the {car} over the {car2}"),
    ("type=PROJECT", "{project} is our internal tool for booking delivery slots at {company}"),
    ("type=PROJECT", "I'm writing a crime novel set in {city} in the 1920s"),
    ("type=PROJECT_STATE", "{project} is in {stage[b]} with {n_small} pilot customers"),
    ("type=PROJECT_STATE", "the {project} migration is about {pct}% done, blocked on the {component} team"),
    ("type=GOAL", "I want to run a half marathon by {month}"),
    ("type=GOAL", "goal for this year: get to B2 in {language}"),
    ("type=CONSTRAINT", "my budget for the new laptop is {price}"),
    ("type=CONSTRAINT", "the {project} app has to work offline, the drivers lose signal a lot"),
    ("type=CONSTRAINT", "I can't take calls before {time} on weekdays"),
    ("type=DISCOVERY", "turns out the flaky {project} tests were caused by the timezone on the CI box"),
    ("type=DISCOVERY", "found out the {city} library lends out {thing}s for free"),
    ("type=WORKFLOW", "I do my weekly review every {weekday} at {time}"),
    ("type=WORKFLOW", "we deploy {project} by tagging a release on main and CI pushes it to staging"),
    ("type=SUCCESSFUL_APPROACH", "adding an index on the orders table took the {project} report from 8 s to 40 ms"),
    ("type=SUCCESSFUL_APPROACH", "what finally fixed the {pet[n]}'s scratching was a second post by the window"),
    ("type=FAILED_APPROACH", "tried caching the {project} search results in {db}, it made things slower, reverted"),
    ("type=FAILED_APPROACH", "moving the cron jobs to {tool} didn't fix the memory leak"),
    ("type=OPEN_QUESTION", "still not sure whether to rent or buy in {city}"),
    ("type=OPEN_QUESTION", "haven't worked out how to get {tool} to talk to our SSO yet"),
    ("type=NEXT_ACTION", "send the {project} report to {name} by {weekday}"),
    ("type=NEXT_ACTION", "renew my {document} before {month}"),
    ("type=USER_CORRECTION", "no, {name} is my cousin, not my sister"),
    ("type=USER_CORRECTION", "correction: the {project} kickoff is on {weekday}, not Monday"),
    # look like secrets, hold none
    ("type=FACT neg=secret", "the door code at {place} changes every month"),
    ("type=FACT neg=secret", "I keep all my passwords in {pw_manager}"),
    ("type=FACT neg=secret", "the wifi password at {place} is on a sticker under the router"),
    ("type=CONSTRAINT neg=secret", "my project's API rate limit is {n_req} requests per minute"),
    ("type=CONSTRAINT neg=secret", "our API tokens rotate every {n_days} days"),
    ("type=NEXT_ACTION neg=secret", "need to reset my {service} password, it expired"),
    ("type=CONSTRAINT neg=secret", "the {bank} PIN has to be six digits, not four"),
    ("type=FACT neg=secret", "my desk extension is {ext}"),
    ("type=FACT neg=secret", "the {project} staging server listens on port {port}"),
    ("type=FACT neg=secret", "my flight {flight} leaves at {time} on {weekday}"),
    ("type=DISCOVERY neg=secret", "the {project} build dies with exit code {errcode} when it runs out of memory"),
    ("type=FACT neg=secret", "the bug is tracked as {ticket}"),
    ("type=FACT neg=secret", "I changed the alarm code last week, the new one is in the family group chat"),
    ("type=FACT neg=secret", "the gate code is written on the back of the key fob"),
    ("type=FACT neg=secret", "the wifi network at the cabin is called {wifi_name}"),
    ("type=FACT neg=secret", "the fix for the {project} crash landed in commit {git_sha}"),
    ("type=FACT neg=secret", "the {project} release tarball's sha256 is {hex64}"),
    ("type=FACT neg=secret", "the {bank} helpline number is {phone_no}"),
    ("type=NEXT_ACTION neg=secret", "turn on two-factor for the {service} account this week"),
    ("type=FACT neg=secret", "the parcel with the {thing} has tracking number {tracking}"),
    # look sensitive, are not
    ("type=FACT neg=sensitive", "I'm reading {book_about}"),
    ("type=PROJECT neg=sensitive", "we're organising a charity run for {charity} in {month}"),
    ("type=PROJECT neg=sensitive", "our startup builds booking software for {clinic} clinics"),
    ("type=PROJECT neg=sensitive", "I'm writing an article on {topic_pol} for a paper in {city}"),
    ("type=FACT neg=sensitive", "the choir rehearses in the church hall on {weekday} evenings"),
    ("type=GOAL neg=sensitive", "I want to take an evening course in {study} next year"),
    ("type=FACT neg=sensitive", "{rel[cap]} job is nursing on the cardiology ward at the {city} hospital"),
    ("type=WORKFLOW neg=sensitive", "I pay off my credit card in full every month"),
    ("type=PROJECT_STATE neg=sensitive", "the debt-collection module of {project} needs a rewrite before {month}"),
    ("type=PREFERENCE neg=sensitive", "I like crime novels set in {city}, the darker the better"),
    ("type=FACT neg=sensitive", "the hospital car park charges £{n_small} an hour"),
    ("type=FACT neg=sensitive", "our team at {company} uses Pride month to raise money for a youth charity"),
    # look like moods, are durable
    ("type=DECISION neg=mood", "I was tired of {host} so we moved to {host2}"),
    ("type=PREFERENCE neg=mood", "I'm happy with {tool}, no need to suggest alternatives"),
    ("type=WORKFLOW neg=mood", "I always have a coffee before the {time} standup, otherwise I'm grumpy all morning"),
    ("type=DECISION neg=mood", "fed up with {service}'s price hikes, we're cancelling at the end of {month}"),
    ("type=DECISION neg=mood", "the team is exhausted after the {project} release, so no new features until {month}"),
    ("type=PREFERENCE neg=mood", "I feel strongly that {project} should stay open source"),
    ("type=DECISION neg=mood", "bored of the canteen, I'll bring my own lunch on {weekday}s"),
    ("type=PROJECT_STATE neg=mood", "excited to say {project} ships on {date}"),
    ("type=CONSTRAINT neg=mood", "I get really tired after 4 pm, so keep my hard meetings in the morning"),
]

# ================================================================================================
# German
# ================================================================================================

DE_SECRET = [
    ("secret", "das WLAN {rel[gen]} heißt {wifi_name}, Passwort {wifi_key}"),
    ("secret", "kannst du dir meinen {service}-Login merken? {email} und {password}"),
    ("secret", "Garagencode ist {pin_words}"),
    ("secret", "an der Haustür einfach {pin_dashed} drücken, dann Schlüsselsymbol"),
    ("secret", "meine EC-Karten-PIN ist {pin4}"),
    ("secret", "hier der Key fürs {project}-Projekt, bitte in die config: {api_key}"),
    ("secret", "der Token fängt mit {split[head]} an und geht weiter mit {split[tail]}"),
    ("secret", "ich melde mich bei der {bank} mit {password} an"),
    ("secret", "Laptop {rel[gen]}: Kennwort {password}"),
    ("secret", "für den Onlineshop: Karte {card}, gültig bis {expiry}, Prüfziffer {cvc}"),
    ("secret", "meine IBAN ist {iban}, falls du sie für die Rechnungsvorlage brauchst"),
    ("secret", "Wallet-Wörter, gut aufheben: {seed}"),
    ("secret", "der Code aus der SMS ist {otp}"),
    ("secret", "SIM-PIN vom neuen Handy: {pin4}, PUK {puk}"),
    ("secret", "der Schlüsselkasten an der Hintertür geht mit {pin4} auf"),
    ("secret", "Zahlenschloss vom Spind: {combo}"),
    ("secret", "Router-Oberfläche: Benutzer admin, {password}"),
    ("secret", "Nutzerin hat für {service} das Passwort {password}."),
    ("secret", "sag {name_f} bitte, die Tür geht mit {door_code} auf, wenn sie am {weekday} kommt"),
    ("secret", "Alarmanlage im Laden ausschalten: {pin4} und dann Taste AUS"),
    ("secret", "Gäste-WLAN: {wifi_name} / {wifi_key}"),
    ("secret", "Bestätigungscode für {service}: {otp_spaced}"),
]

DE_SENSITIVE = [
    ("sens=health type=FACT", "ich nehme jeden Morgen {med_cond[med]} wegen {med_cond[cond]}"),
    ("sens=health type=FACT", "im {month} wurde bei mir {condition} festgestellt"),
    ("sens=health type=WORKFLOW", "seit dem Burnout gehe ich jeden {weekday} zur Psychotherapie"),
    ("sens=sex_life_orientation type=FACT", "ich bin bi und meine Familie weiß es, im Büro aber keiner"),
    (
        "sens=sex_life_orientation type=CONSTRAINT",
        "erwähn {name_f} bitte nicht in Mails an meine Eltern, die wissen nicht, dass ich lesbisch bin",
    ),
    ("sens=religion_belief type=FACT", "ich bin praktizierende {religion[adj]} und faste {religion[fast]}"),
    (
        "sens=religion_belief type=CONSTRAINT",
        "am {religion[day]}vormittag bitte keine Termine, da gehe ich {religion[place]}",
    ),
    ("sens=religion_belief type=FACT", "ich bin vor Jahren aus der Kirche ausgetreten und Atheist"),
    ("sens=political_union type=FACT", "ich bin Mitglied {party} und mache Wahlkampf in {city}"),
    ("sens=political_union type=FACT", "ich bin Vertrauensfrau {union} in unserem Betrieb"),
    (
        "sens=ethnic_origin type=FACT",
        "unsere Familie gehört zu den {ethnicity[group]}, zu Hause sprechen wir {ethnicity[lang]}",
    ),
    ("sens=ethnic_origin type=FACT", "ich bin zur Hälfte {half}, das sieht man mir aber nicht an"),
    ("sens=genetic_biometric type=FACT", "der Gentest hat ergeben, dass ich die {gene}-Mutation trage"),
    ("sens=genetic_biometric type=DISCOVERY", "laut DNA-Test bin ich Trägerin für {gen_cond}"),
    ("sens=criminal_record type=FACT", "ich bin wegen {offence} vorbestraft, steht im Führungszeugnis"),
    ("sens=criminal_record type=FACT", "meine Bewährung läuft noch bis {month}"),
    ("sens=money_trouble type=FACT", "ich bin {n_small} Monatsmieten im Rückstand, der Vermieter hat gemahnt"),
    ("sens=money_trouble type=GOAL", "ich hab {debt} Schulden auf dem Dispo und will bis {month} runter davon"),
    ("sens=money_trouble type=FACT", "Nutzer hat ein Inkassoschreiben über {debt} bekommen."),
    ("sens=child_health_schooling type=FACT", "mein Sohn {child_m} hat {child_cond} und bekommt Nachteilsausgleich"),
    ("sens=child_health_schooling type=FACT", "{child} kommt nach den Sommerferien {school}"),
    (
        "sens=child_health_schooling type=NEXT_ACTION",
        "{child} wird in der Schule gemobbt, Gespräch mit der Lehrerin am {weekday}",
    ),
]

DE_MOOD = [
    ("mood", "bin {now} {mood_tired}"),
    ("mood", "boah, {intens} {mood_cross} {now}"),
    ("mood", "ich bin {now} {mood_good}!"),
    ("mood", "sorry, bin {now} {intens} {mood_cross}"),
    ("mood", "{intens} müde {now}"),
    ("mood", "heute ist nicht mein Tag, ich bin einfach {mood_tired}"),
    ("mood", "hab {now} auf gar nichts Lust"),
    ("mood", "ich bin {now} {intens} gestresst wegen der Deadline"),
]

DE_ORDINARY = [
    ("type=FACT", "{rel[cap]} wohnt seit Jahren in {city}"),
    ("type=FACT", "ich arbeite als {job} bei {company}"),
    ("type=PREFERENCE", "ich trinke morgens lieber {drink} als Kaffee mit Milch"),
    ("type=PREFERENCE", "{food} mag ich überhaupt nicht, bitte nie in Rezepten vorschlagen"),
    ("type=DECISION", "wir haben uns für {db} als Datenbank für {project} entschieden"),
    ("type=DECISION", "der Launch von {project} wird auf {month} verschoben, so ist es beschlossen"),
    ("type=PROJECT", "{project} ist unser internes Tool zur Schichtplanung bei {company}"),
    ("type=PROJECT_STATE", "{project} ist jetzt in der {stage[b]}-Phase mit {n_small} Pilotkunden"),
    ("type=GOAL", "bis {month} will ich einen Halbmarathon laufen"),
    ("type=CONSTRAINT", "mein Budget für das neue Fahrrad liegt bei {price}"),
    ("type=CONSTRAINT", "vor {time} bitte keine Anrufe, auch nicht dienstlich"),
    ("type=DISCOVERY", "hab rausgefunden, dass die Bibliothek in {city} Lastenräder verleiht"),
    ("type=WORKFLOW", "jeden {weekday} um {time} mache ich meinen Wochenrückblick"),
    ("type=SUCCESSFUL_APPROACH", "mit einem Index auf der Tabelle lief der {project}-Report endlich in Sekunden"),
    ("type=FAILED_APPROACH", "die Cronjobs auf {tool} umzuziehen hat das Speicherleck nicht behoben"),
    ("type=OPEN_QUESTION", "ich weiß noch nicht, ob wir in {city} mieten oder kaufen"),
    ("type=NEXT_ACTION", "bis {weekday} den {project}-Bericht an {name} schicken"),
    ("type=NEXT_ACTION", "vor {month} {document} verlängern"),
    ("type=USER_CORRECTION", "nein, {name} ist meine Cousine, nicht meine Schwester"),
    ("type=FACT neg=secret", "der Türcode im Büro ändert sich jeden Monat"),
    ("type=FACT neg=secret", "meine Passwörter liegen alle in {pw_manager}"),
    ("type=FACT neg=secret", "das WLAN-Passwort steht auf einem Aufkleber unter dem Router"),
    ("type=CONSTRAINT neg=secret", "das Rate-Limit unserer API liegt bei {n_req} Anfragen pro Minute"),
    ("type=NEXT_ACTION neg=secret", "ich muss mein {service}-Passwort zurücksetzen, es ist abgelaufen"),
    ("type=FACT neg=secret", "meine Durchwahl ist {ext}"),
    ("type=FACT neg=secret", "der Staging-Server von {project} läuft auf Port {port}"),
    ("type=FACT neg=secret", "der Fehler steht im Ticket {ticket}"),
    ("type=FACT neg=secret", "die Hotline der {bank} ist {phone_no}"),
    ("type=FACT neg=sensitive", "ich lese gerade {book_about}"),
    ("type=PROJECT neg=sensitive", "wir organisieren im {month} einen Spendenlauf für {charity}"),
    ("type=WORKFLOW neg=sensitive", "ich zahle die Kreditkarte jeden Monat komplett ab"),
    ("type=FACT neg=sensitive", "der Chor probt am {weekday}abend im Gemeindesaal"),
    ("type=DECISION neg=mood", "ich hatte {host} satt, also sind wir zu {host2} umgezogen"),
    ("type=PREFERENCE neg=mood", "mit {tool} bin ich zufrieden, keine Alternativen nötig"),
    ("type=CONSTRAINT neg=mood", "nach 16 Uhr bin ich immer müde, schwierige Termine bitte vormittags"),
]

# ================================================================================================
# French
# ================================================================================================

FR_SECRET = [
    ("secret", "le wifi {rel[chez]} c'est {wifi_name}, mot de passe {wifi_key}"),
    ("secret", "tu peux retenir mes identifiants {service} ? {email} / {password}"),
    ("secret", "le code du garage c'est {pin_words}"),
    ("secret", "pour entrer dans l'immeuble tu tapes {pin_dashed} puis la clé"),
    ("secret", "mon code de carte bleue c'est {pin4}"),
    ("secret", "voici la clé pour le prototype {project}, à mettre dans la config : {api_key}"),
    ("secret", "le jeton commence par {split[head]} et continue avec {split[tail]}"),
    ("secret", "je me connecte à l'appli {bank} avec {password}"),
    ("secret", "l'ordi {rel[de]} : mdp {password}"),
    ("secret", "pour la boutique en ligne : carte {card}, exp {expiry}, cryptogramme {cvc}"),
    ("secret", "mon IBAN c'est {iban} si tu en as besoin pour la facture"),
    ("secret", "les 12 mots du portefeuille, à garder précieusement : {seed}"),
    ("secret", "le code reçu par SMS est {otp}"),
    ("secret", "code PIN de la nouvelle SIM {pin4}, PUK {puk}"),
    ("secret", "la boîte à clés près de la porte de derrière s'ouvre avec {pin4}"),
    ("secret", "cadenas du casier à la salle : {combo}"),
    ("secret", "L'utilisatrice utilise {password} pour son compte {service}."),
    ("secret", "dis à {name_f} que la porte c'est {door_code} quand elle arrive {weekday}"),
    ("secret", "pour couper l'alarme de la boutique : {pin4} puis OFF"),
    ("secret", "wifi invités : {wifi_name} / {wifi_key}"),
    ("secret", "code de vérification {service} : {otp_spaced}"),
]

FR_SENSITIVE = [
    ("sens=health type=FACT", "je prends {med_cond[med]} tous les matins pour {med_cond[cond]}"),
    ("sens=health type=FACT", "on m'a diagnostiqué {condition} en {month}"),
    ("sens=health type=WORKFLOW", "je vois une psy tous les {weekday} depuis mon burn-out"),
    ("sens=sex_life_orientation type=FACT", "je suis gay, ma famille le sait mais pas mes collègues"),
    ("sens=sex_life_orientation type=DECISION", "j'ai décidé de faire mon coming out auprès de {rel[n]} à Noël"),
    ("sens=religion_belief type=FACT", "je suis {religion[adj]} pratiquante et je fais {religion[fast]}"),
    ("sens=religion_belief type=CONSTRAINT", "pas de réunion le {religion[day]} matin, je vais {religion[place]}"),
    ("sens=political_union type=FACT", "je suis encarté {party} et je tracte à {city} le week-end"),
    ("sens=political_union type=FACT", "je suis déléguée syndicale {union} dans ma boîte"),
    ("sens=ethnic_origin type=FACT", "ma famille est {ethnicity[group]}, on parle {ethnicity[lang]} à la maison"),
    ("sens=ethnic_origin type=FACT", "je suis à moitié {half} par mon père"),
    ("sens=genetic_biometric type=FACT", "le test génétique dit que je porte la mutation {gene}"),
    ("sens=genetic_biometric type=DISCOVERY", "d'après le test ADN je suis porteuse de {gen_cond}"),
    ("sens=criminal_record type=FACT", "j'ai une condamnation pour {offence}, ça figure sur mon casier"),
    ("sens=criminal_record type=FACT", "je suis en sursis avec mise à l'épreuve jusqu'en {month}"),
    ("sens=money_trouble type=FACT", "j'ai {n_small} mois de loyer de retard, le proprio a envoyé une mise en demeure"),
    ("sens=money_trouble type=FACT", "j'ai un dossier de surendettement à la Banque de France"),
    ("sens=money_trouble type=GOAL", "je dois {debt} sur mon crédit conso et je veux avoir remboursé d'ici {month}"),
    ("sens=child_health_schooling type=FACT", "mon fils {child_m} a {child_cond} et a un tiers-temps aux examens"),
    ("sens=child_health_schooling type=FACT", "{child} entre {school} en septembre"),
    (
        "sens=child_health_schooling type=NEXT_ACTION",
        "{child} se fait harceler à l'école, rendez-vous avec la directrice {weekday}",
    ),
]

FR_MOOD = [
    ("mood", "{intens} {mood_tired} {now}"),
    ("mood", "pfff, je suis {mood_cross} {now}"),
    ("mood", "je suis {mood_good} {now} !"),
    ("mood", "désolée, je suis un peu {mood_cross} {now}"),
    ("mood", "j'ai {intens} sommeil {now}"),
    ("mood", "journée pourrie, je suis juste {mood_tired}"),
    ("mood", "aucune motivation {now}"),
    ("mood", "je suis {intens} stressé {now} avec cette deadline"),
]

FR_ORDINARY = [
    ("type=FACT", "{rel[cap]} habite à {city} depuis des années"),
    ("type=FACT", "je travaille comme {job} chez {company}"),
    ("type=PREFERENCE", "le matin je préfère {drink} au café au lait"),
    ("type=PREFERENCE", "je déteste {food}, ne m'en propose jamais dans une recette"),
    ("type=DECISION", "on a choisi {db} comme base de données pour {project}"),
    ("type=DECISION", "c'est décidé, le lancement de {project} est repoussé à {month}"),
    ("type=PROJECT", "{project} c'est notre outil interne pour planifier les tournées chez {company}"),
    ("type=PROJECT_STATE", "{project} est en {stage[b]} avec {n_small} clients pilotes"),
    ("type=GOAL", "je veux courir un semi-marathon d'ici {month}"),
    ("type=CONSTRAINT", "mon budget pour le nouveau vélo c'est {price}"),
    ("type=CONSTRAINT", "pas d'appels avant {time} en semaine"),
    ("type=DISCOVERY", "j'ai découvert que la médiathèque de {city} prête des vélos cargo"),
    ("type=WORKFLOW", "tous les {weekday} à {time} je fais ma revue de la semaine"),
    ("type=SUCCESSFUL_APPROACH", "un index sur la table a fait passer le rapport {project} de 8 s à 40 ms"),
    ("type=FAILED_APPROACH", "passer les tâches cron sur {tool} n'a pas réglé la fuite mémoire"),
    ("type=OPEN_QUESTION", "je ne sais toujours pas si on loue ou si on achète à {city}"),
    ("type=NEXT_ACTION", "envoyer le rapport {project} à {name} avant {weekday}"),
    ("type=NEXT_ACTION", "renouveler {document} avant {month}"),
    ("type=USER_CORRECTION", "non, {name} c'est ma cousine, pas ma sœur"),
    ("type=FACT neg=secret", "le digicode du bureau change tous les mois"),
    ("type=FACT neg=secret", "je garde tous mes mots de passe dans {pw_manager}"),
    ("type=FACT neg=secret", "le mot de passe du wifi est sur une étiquette sous la box"),
    ("type=CONSTRAINT neg=secret", "la limite de notre API c'est {n_req} requêtes par minute"),
    ("type=NEXT_ACTION neg=secret", "il faut que je réinitialise mon mot de passe {service}, il a expiré"),
    ("type=FACT neg=secret", "mon poste au bureau c'est le {ext}"),
    ("type=FACT neg=secret", "le serveur de préprod de {project} écoute sur le port {port}"),
    ("type=FACT neg=secret", "le bug est suivi dans le ticket {ticket}"),
    ("type=FACT neg=secret", "le service client de {bank} c'est le {phone_no}"),
    ("type=FACT neg=sensitive", "je lis {book_about}"),
    ("type=PROJECT neg=sensitive", "on organise une course solidaire pour {charity} en {month}"),
    ("type=WORKFLOW neg=sensitive", "je rembourse ma carte de crédit en entier chaque mois"),
    ("type=FACT neg=sensitive", "la chorale répète dans la salle paroissiale le {weekday} soir"),
    ("type=DECISION neg=mood", "j'en avais marre de {host}, du coup on est passés sur {host2}"),
    ("type=PREFERENCE neg=mood", "je suis content de {tool}, pas besoin de me proposer autre chose"),
    ("type=CONSTRAINT neg=mood", "je suis toujours crevée après 16h, mets les réunions difficiles le matin"),
]

# ================================================================================================
# Spanish
# ================================================================================================

ES_SECRET = [
    ("secret", "el wifi {rel[casa]} es {wifi_name} y la clave {wifi_key}"),
    ("secret", "¿me guardas el acceso a {service}? {email} / {password}"),
    ("secret", "el código del garaje es {pin_words}"),
    ("secret", "para entrar al portal marcas {pin_dashed} y luego la llave"),
    ("secret", "el PIN de mi tarjeta es {pin4}"),
    ("secret", "aquí tienes la key del prototipo {project}, ponla en la config: {api_key}"),
    ("secret", "el token empieza por {split[head]} y sigue con {split[tail]}"),
    ("secret", "entro en la app de {bank} con {password}"),
    ("secret", "el portátil {rel[de]}: {password}"),
    ("secret", "para la tienda online: tarjeta {card}, caduca {expiry}, CVV {cvc}"),
    ("secret", "mi IBAN es {iban} por si lo necesitas para la factura"),
    ("secret", "las palabras de la cartera, guárdalas bien: {seed}"),
    ("secret", "el código que me llegó por SMS es {otp}"),
    ("secret", "PIN de la SIM nueva {pin4}, PUK {puk}"),
    ("secret", "la caja de llaves de la puerta de atrás se abre con {pin4}"),
    ("secret", "candado de la taquilla del gimnasio: {combo}"),
    ("secret", "La usuaria usa {password} para su cuenta de {service}."),
    ("secret", "dile a {name} que la puerta es {door_code} cuando llegue el {weekday}"),
    ("secret", "para desactivar la alarma de la tienda: {pin4} y luego OFF"),
    ("secret", "wifi de invitados: {wifi_name} / {wifi_key}"),
    ("secret", "código de verificación de {service}: {otp_spaced}"),
]

ES_SENSITIVE = [
    ("sens=health type=FACT", "tomo {med_cond[med]} todas las mañanas por {med_cond[cond]}"),
    ("sens=health type=FACT", "en {month} me diagnosticaron {condition}"),
    ("sens=health type=WORKFLOW", "voy a terapia todos los {weekday} desde el burnout"),
    ("sens=sex_life_orientation type=FACT", "soy bisexual, mi familia lo sabe pero en el trabajo no"),
    ("sens=sex_life_orientation type=DECISION", "he decidido salir del armario con {rel[n]} en Navidad"),
    ("sens=religion_belief type=FACT", "soy {religion[adj]} practicante y guardo {religion[fast]}"),
    (
        "sens=religion_belief type=CONSTRAINT",
        "nada de reuniones el {religion[day]} por la mañana, voy {religion[place]}",
    ),
    ("sens=political_union type=FACT", "estoy afiliada {party} y hago campaña en {city}"),
    ("sens=political_union type=FACT", "soy delegado sindical {union} en la empresa"),
    ("sens=ethnic_origin type=FACT", "mi familia es {ethnicity[group]} y en casa hablamos {ethnicity[lang]}"),
    ("sens=ethnic_origin type=FACT", "por parte de madre soy medio {half}"),
    ("sens=genetic_biometric type=FACT", "el test genético dice que tengo la mutación {gene}"),
    ("sens=genetic_biometric type=DISCOVERY", "según la prueba de ADN soy portadora de {gen_cond}"),
    ("sens=criminal_record type=FACT", "tengo antecedentes penales por {offence}"),
    ("sens=criminal_record type=FACT", "estoy en libertad condicional hasta {month}"),
    ("sens=money_trouble type=FACT", "debo {n_small} meses de alquiler y el casero ya me ha avisado"),
    ("sens=money_trouble type=FACT", "estoy en un fichero de morosos por una deuda de {debt}"),
    ("sens=money_trouble type=GOAL", "tengo {debt} de deuda en la tarjeta y quiero saldarla antes de {month}"),
    (
        "sens=child_health_schooling type=FACT",
        "mi hijo {child_m} tiene {child_cond} y le dan más tiempo en los exámenes",
    ),
    ("sens=child_health_schooling type=FACT", "{child} empieza en {school} en septiembre"),
    ("sens=child_health_schooling type=NEXT_ACTION", "a {child} le hacen bullying en el cole, tutoría el {weekday}"),
]

ES_MOOD = [
    ("mood", "estoy {mood_tired} {now}"),
    ("mood", "uf, {intens} {mood_cross} {now}"),
    ("mood", "estoy {mood_good} {now}!"),
    ("mood", "perdona, estoy un poco {mood_cross} {now}"),
    ("mood", "tengo {intens} sueño {now}"),
    ("mood", "vaya día, estoy {mood_tired}"),
    ("mood", "{now} no tengo ganas de nada"),
    ("mood", "estoy {intens} estresada {now} con la entrega"),
]

ES_ORDINARY = [
    ("type=FACT", "{rel[cap]} vive en {city} desde hace años"),
    ("type=FACT", "trabajo de {job} en {company}"),
    ("type=PREFERENCE", "por la mañana prefiero {drink} al café con leche"),
    ("type=PREFERENCE", "odio {food}, no me lo pongas nunca en una receta"),
    ("type=DECISION", "hemos elegido {db} como base de datos para {project}"),
    ("type=DECISION", "decidido: el lanzamiento de {project} se retrasa a {month}"),
    ("type=PROJECT", "{project} es nuestra herramienta interna para organizar los repartos en {company}"),
    ("type=PROJECT_STATE", "{project} está en {stage[b]} con {n_small} clientes piloto"),
    ("type=GOAL", "quiero correr una media maratón antes de {month}"),
    ("type=CONSTRAINT", "mi presupuesto para la bici nueva es de {price}"),
    ("type=CONSTRAINT", "nada de llamadas antes de las {time} entre semana"),
    ("type=DISCOVERY", "he descubierto que la biblioteca de {city} presta bicis de carga"),
    ("type=WORKFLOW", "todos los {weekday} a las {time} hago mi repaso semanal"),
    ("type=SUCCESSFUL_APPROACH", "con un índice en la tabla el informe de {project} pasó de 8 s a 40 ms"),
    ("type=FAILED_APPROACH", "pasar los cron a {tool} no arregló la fuga de memoria"),
    ("type=OPEN_QUESTION", "todavía no sé si alquilar o comprar en {city}"),
    ("type=NEXT_ACTION", "mandar el informe de {project} a {name} antes del {weekday}"),
    ("type=NEXT_ACTION", "renovar el {document} antes de {month}"),
    ("type=USER_CORRECTION", "no, {name} es mi prima, no mi hermana"),
    ("type=FACT neg=secret", "el código de la puerta de la oficina cambia cada mes"),
    ("type=FACT neg=secret", "guardo todas mis contraseñas en {pw_manager}"),
    ("type=FACT neg=secret", "la clave del wifi está en una pegatina debajo del router"),
    ("type=CONSTRAINT neg=secret", "el límite de nuestra API es de {n_req} peticiones por minuto"),
    ("type=NEXT_ACTION neg=secret", "tengo que restablecer la contraseña de {service}, ha caducado"),
    ("type=FACT neg=secret", "mi extensión en la oficina es la {ext}"),
    ("type=FACT neg=secret", "el servidor de staging de {project} escucha en el puerto {port}"),
    ("type=FACT neg=secret", "el fallo está en el ticket {ticket}"),
    ("type=FACT neg=secret", "el teléfono de atención de {bank} es el {phone_no}"),
    ("type=FACT neg=sensitive", "estoy leyendo {book_about}"),
    ("type=PROJECT neg=sensitive", "organizamos una carrera solidaria por {charity} en {month}"),
    ("type=WORKFLOW neg=sensitive", "pago la tarjeta de crédito entera cada mes"),
    ("type=FACT neg=sensitive", "el coro ensaya en el salón parroquial los {weekday} por la tarde"),
    ("type=DECISION neg=mood", "estaba harta de {host}, así que nos pasamos a {host2}"),
    ("type=PREFERENCE neg=mood", "estoy contento con {tool}, no hace falta buscar alternativas"),
    (
        "type=CONSTRAINT neg=mood",
        "a partir de las 16h siempre estoy cansada, pon las reuniones difíciles por la mañana",
    ),
]

GROUPS: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("en", "secret"): EN_SECRET, ("en", "sensitive"): EN_SENSITIVE, ("en", "mood"): EN_MOOD,
    ("en", "ordinary"): EN_ORDINARY,
    ("de", "secret"): DE_SECRET, ("de", "sensitive"): DE_SENSITIVE, ("de", "mood"): DE_MOOD,
    ("de", "ordinary"): DE_ORDINARY,
    ("fr", "secret"): FR_SECRET, ("fr", "sensitive"): FR_SENSITIVE, ("fr", "mood"): FR_MOOD,
    ("fr", "ordinary"): FR_ORDINARY,
    ("es", "secret"): ES_SECRET, ("es", "sensitive"): ES_SENSITIVE, ("es", "mood"): ES_MOOD,
    ("es", "ordinary"): ES_ORDINARY,
}  # fmt: skip


@dataclass(frozen=True)
class Template:
    id: str
    lang: str
    group: str  # secret | sensitive | mood | ordinary: the class the frame was written for
    spec: str
    frame: str


def all_templates() -> list[Template]:
    out = []
    for (lang, group), frames in GROUPS.items():
        for i, (spec, frame) in enumerate(frames, 1):
            out.append(Template(f"{lang}-{group[:3]}-{i:02d}", lang, group, spec, frame))
    return out
