"""Dates on screen and on paper as a Spanish reader in Wisconsin writes them: `1 de marzo de 2027`.
Money and numbers keep the decimal point, as in the United States' Spanish (and on the dollar
amounts the ordinances set): $10.00, where Django's `es` formats would write 10,00. Data, forms
and CSV stay ISO."""

DATE_FORMAT = r"j \d\e F \d\e Y"
DATETIME_FORMAT = r"j \d\e F \d\e Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = r"j \d\e F"
YEAR_MONTH_FORMAT = r"F \d\e Y"
SHORT_DATE_FORMAT = r"j \d\e F \d\e Y"
SHORT_DATETIME_FORMAT = r"j \d\e F \d\e Y, H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
