"""Who may do the clerk's licensing actions."""

from dogtag.accounts.models import Role

CLERKS = (Role.CLERK, Role.ADMINISTRATOR)
REVOKERS = (*CLERKS, Role.OFFICER)  # who may revoke a license
