"""Server settings (/settings): stored through the records database, held in memory for clicks."""
