"""Section citations: ``MM rulebook (it) §<heading>`` of the Italian rulebook (rules/MM rulebook (it)).

English glosses: Preparazione del Gioco = Game Setup; Plancia del Racconto = Story Board; Round di
Gioco = Game Rounds; Determinare l'Ordine di Iniziativa = Determining Initiative; Il Turno di un
Topo = A Mouse's Turn; Movimento dei Topi = Mouse Movement; Caselle Adiacenti = Adjacent Spaces;
Linee Gialle / Rosse = Yellow / Red Lines; Condividere le Caselle = Sharing Spaces; Muoversi
nell'Acqua = Moving in Water; Collocare i Servitori sul Tabellone = Placing Minions; Il Turno di
un Servitore = A Minion's Turn; Capitolo 1 = Chapter 1 (story book sample in the same file).
"""

SETUP = "MM rulebook (it) §Preparazione del Gioco"
STORY_BOARD = "MM rulebook (it) §Plancia del Racconto"
CHAPTER_1 = "MM rulebook (it) §Capitolo 1 (Fuga per Borgoquercia): Preparazione del Gruppo"
ROUNDS = "MM rulebook (it) §Round di Gioco"
INITIATIVE = "MM rulebook (it) §Determinare l'Ordine di Iniziativa"
MOUSE_TURN = "MM rulebook (it) §Il Turno di un Topo"
MOVEMENT = "MM rulebook (it) §Movimento dei Topi"
ADJACENT = "MM rulebook (it) §Caselle Adiacenti"
YELLOW_LINES = "MM rulebook (it) §Linee Gialle"
RED_LINES = "MM rulebook (it) §Linee Rosse"
BLACK_AREAS = "MM rulebook (it) §Aree Nere e Muri"
SHARING = "MM rulebook (it) §Condividere le Caselle"
WATER = "MM rulebook (it) §Muoversi nell'Acqua"
PLACEMENT = "MM rulebook (it) §Collocare i Servitori sul Tabellone"
MINION_TURN = "MM rulebook (it) §Il Turno di un Servitore"
ATTACK = "MM rulebook (it) §Attacco"
MELEE = "MM rulebook (it) §Attacco in Mischia"
RANGED = "MM rulebook (it) §Attacco a Distanza"
SIGHT = "MM rulebook (it) §Vedere il Bersaglio"
WOUND_MINION = "MM rulebook (it) §Ferire un Servitore"
MINION_MOVE = "MM rulebook (it) §Muovere un Servitore"
MINION_ATTACK = "MM rulebook (it) §Attaccare con un Servitore"
CAPTURED = "MM rulebook (it) §Topi Catturati"
RELEASE = "MM rulebook (it) §Liberare un Topo"
TIME_PASSES = "MM rulebook (it) §Il Tempo Scorre!"
SUMMONING = "MM rulebook (it) §Evocazioni"
SEARCH = "MM rulebook (it) §Ricerca"
RECOVER = "MM rulebook (it) §Recupero"
SCURRY = "MM rulebook (it) §Scatto"
EXPLORE = "MM rulebook (it) §Esplorare"
ENCOUNTERS = "MM rulebook (it) §Incontri"
NEGATIVE_EFFECTS = "MM rulebook (it) §Effetti Negativi"
CHAPTER_1_GOALS = "MM rulebook (it) §Capitolo 1: Obiettivi del Capitolo"
BOSS_CARDS = "MM rulebook (it) §Carte Iniziativa dei Boss"
