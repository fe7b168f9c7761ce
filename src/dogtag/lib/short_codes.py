"""Short codes a person reads off paper and types: Crockford's base-32 alphabet (no I, L, O or U),
so what looks alike reads alike ("O" is taken as zero, "I" and "L" as one), drawn from the
operating system's random source (`secrets`): 8 characters are 40 bits, not guessable under the
portal's throttle."""

import re
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """`K7M2-9QXD`: in two halves, as printed."""
    return f"{code[:4]}-{code[4:]}"


def typed(text: str) -> str:
    """What a person typed as the code it stands for: spaces and hyphens dropped, upper case,
    look-alike letters read as the digits they stand for."""
    return re.sub(r"[\s\-]", "", text or "").upper().translate(_READ_AS)


def well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(c in ALPHABET for c in code)
