"""One date format on screen and on paper: `March 1, 2027` (and `March 1, 2027, 2:05 PM` with a
time), where Django's own English formats would write `Sept. 1, 2027, 2:05 p.m.`. Data, forms
and CSV stay ISO (the input formats are Django's, ISO first)."""

DATE_FORMAT = "F j, Y"
DATETIME_FORMAT = "F j, Y, g:i A"
TIME_FORMAT = "g:i A"
MONTH_DAY_FORMAT = "F j"
SHORT_DATE_FORMAT = "F j, Y"
SHORT_DATETIME_FORMAT = "F j, Y, g:i A"
