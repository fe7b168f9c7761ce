"""Animal control's writes (DESIGN.md, layer rule 2): each action runs in one transaction, checks the
acting user's role in the case's municipality, asks the rule engine for every legal number, stores
each deadline with its citations, and writes one audit event. One module per procedure."""

from dogtag.enforcement.actions.cases import (
    OFFICERS,
    STAFF,
    VETERINARIANS,
    close_case,
    currently_immunized,
)
from dogtag.enforcement.actions.citations import (
    issue_citation,
    offense_number,
    record_citation_paid,
    record_cure,
    void_citation,
)
from dogtag.enforcement.actions.complaints import (
    record_complaint,
    record_notice_step,
)
from dogtag.enforcement.actions.custody import (
    record_escape_notification,
    record_failure_to_comply,
)
from dogtag.enforcement.actions.declarations import (
    apply_for_waiver,
    declare_dog,
    record_elsewhere_notice,
    register_declared_elsewhere,
    serve_declaration,
    serve_removal_notice,
)
from dogtag.enforcement.actions.hearings import (
    decide_appeal,
    decide_hearing,
    file_appeal,
    record_decision_received,
    request_hearing,
    schedule_hearing,
)
from dogtag.enforcement.actions.impoundments import (
    CONDITION_WORDS,
    dispose_unclaimed,
    give_impound_notice,
    impound,
    licensed,
    release_decision,
    release_impoundment,
)
from dogtag.enforcement.actions.quarantines import (
    declare_district_quarantine,
    extend_quarantine,
    identify_biting_animal,
    order_bite_quarantine,
    order_exposure_quarantine,
    record_delivery,
    record_examination,
    record_lab_result,
    record_symptoms,
    release_quarantine,
    report_bite,
)
from dogtag.enforcement.actions.requirements import (
    impose_requirement,
    record_requirement_proof,
)

__all__ = [
    "OFFICERS",
    "STAFF",
    "VETERINARIANS",
    "close_case",
    "currently_immunized",
    "record_complaint",
    "record_notice_step",
    "CONDITION_WORDS",
    "dispose_unclaimed",
    "give_impound_notice",
    "impound",
    "licensed",
    "release_decision",
    "release_impoundment",
    "declare_district_quarantine",
    "extend_quarantine",
    "identify_biting_animal",
    "order_bite_quarantine",
    "order_exposure_quarantine",
    "record_delivery",
    "record_examination",
    "record_lab_result",
    "record_symptoms",
    "release_quarantine",
    "report_bite",
    "apply_for_waiver",
    "declare_dog",
    "record_elsewhere_notice",
    "register_declared_elsewhere",
    "serve_declaration",
    "serve_removal_notice",
    "decide_appeal",
    "decide_hearing",
    "file_appeal",
    "record_decision_received",
    "request_hearing",
    "schedule_hearing",
    "impose_requirement",
    "record_requirement_proof",
    "record_escape_notification",
    "record_failure_to_comply",
    "issue_citation",
    "offense_number",
    "record_citation_paid",
    "record_cure",
    "void_citation",
]
