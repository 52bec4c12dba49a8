"""The published perft tables of the draughts variants (the "drop" columns: capture routes with
the same start, end, captured set and resulting kind are one move), shared by the rules', the
native kernel's and the command line's tests; and the Alquerque family's perft from the start
(every capture route its own move, as the rules files say), shared by its rules' and native tests."""

# variant -> (rule options, [perft(1), perft(2), ...]) from the published perft tables (drop columns)
PERFT = {
    "english": ({}, [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680]),
    "international": ({}, [9, 81, 658, 4265, 27117, 167140, 1049442]),
    "russian": ({}, [7, 49, 302, 1469, 7482, 37986, 190146, 929899]),
    "brazilian": ({}, [7, 49, 302, 1469, 7473, 37628, 187302, 907830]),
    "pool": ({}, [7, 49, 302, 1469, 7482, 37986, 190146, 929896]),
    "czech": ({}, [7, 49, 302, 1469, 7361, 36768, 179740, 845931]),
    "spanish": ({}, [7, 49, 302, 1469, 7361, 36473, 177532, 828783]),
    "italian": ({}, [7, 49, 302, 1469, 7361, 36473, 177532, 828783]),
    # the table's "Thai rules, 12-man start" column
    "thai": ({"men_rows": 3}, [7, 49, 302, 1469, 7361, 36768, 179740, 845931]),
    "frisian": ({}, [9, 81, 658, 3874, 21265, 102431, 540126]),
    "canadian": ({}, [11, 121, 1222, 10053, 79049, 584100]),
    "turkish": ({}, [8, 64, 708, 7538, 85090, 931312]),
}

# game -> [perft(1), perft(2), ...] from the start: the Alquerque family (rules/alquerque.py), depths 1-3
# of Alquerque and 2 of Zamma and Harbagh are the rules files' worked examples
ALQUERQUE_PERFT = {
    "alquerque": [4, 5, 6, 12, 29, 109, 541, 2730],
    "zamma": [4, 6, 8, 20, 91, 267, 1155],
    "harbagh": [4, 6, 8, 19, 54, 200, 826],
    "fox-and-geese": [16, 86, 1822, 11418],
}
