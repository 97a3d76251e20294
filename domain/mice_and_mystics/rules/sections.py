"""Section citations: ``001 §<heading>`` of the Italian rulebook (rules/001_4b5c89fefc63a991.txt).

English glosses: Preparazione del Gioco = Game Setup; Plancia del Racconto = Story Board; Round di
Gioco = Game Rounds; Determinare l'Ordine di Iniziativa = Determining Initiative; Il Turno di un
Topo = A Mouse's Turn; Movimento dei Topi = Mouse Movement; Caselle Adiacenti = Adjacent Spaces;
Linee Gialle / Rosse = Yellow / Red Lines; Condividere le Caselle = Sharing Spaces; Muoversi
nell'Acqua = Moving in Water; Collocare i Servitori sul Tabellone = Placing Minions; Il Turno di
un Servitore = A Minion's Turn; Capitolo 1 = Chapter 1 (story book sample in the same file).
"""

SETUP = "001 §Preparazione del Gioco"
STORY_BOARD = "001 §Plancia del Racconto"
CHAPTER_1 = "001 §Capitolo 1 (Fuga per Borgoquercia): Preparazione del Gruppo"
ROUNDS = "001 §Round di Gioco"
INITIATIVE = "001 §Determinare l'Ordine di Iniziativa"
MOUSE_TURN = "001 §Il Turno di un Topo"
MOVEMENT = "001 §Movimento dei Topi"
ADJACENT = "001 §Caselle Adiacenti"
YELLOW_LINES = "001 §Linee Gialle"
RED_LINES = "001 §Linee Rosse"
BLACK_AREAS = "001 §Aree Nere e Muri"
SHARING = "001 §Condividere le Caselle"
WATER = "001 §Muoversi nell'Acqua"
PLACEMENT = "001 §Collocare i Servitori sul Tabellone"
MINION_TURN = "001 §Il Turno di un Servitore"
ATTACK = "001 §Attacco"
MELEE = "001 §Attacco in Mischia"
RANGED = "001 §Attacco a Distanza"
SIGHT = "001 §Vedere il Bersaglio"
WOUND_MINION = "001 §Ferire un Servitore"
MINION_MOVE = "000 §Muovere un Servitore"
MINION_ATTACK = "000 §Attaccare con un Servitore"
CAPTURED = "000 §Topi Catturati"
RELEASE = "000 §Liberare un Topo"
TIME_PASSES = "001 §Il Tempo Scorre!"
SUMMONING = "001 §Evocazioni"
SEARCH = "001 §Ricerca"
RECOVER = "001 §Recupero"
SCURRY = "001 §Scatto"
EXPLORE = "001 §Esplorare"
ENCOUNTERS = "001 §Incontri"
NEGATIVE_EFFECTS = "000 §Effetti Negativi"
CHAPTER_1_GOALS = "001 §Capitolo 1: Obiettivi del Capitolo"
BOSS_CARDS = "001 §Carte Iniziativa dei Boss"
