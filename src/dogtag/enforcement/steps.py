"""The procedures' steps and the cases one can open, each a form and the action it calls: one
table read by the staff pages and by the API, so the two cannot disagree."""

from django.core.exceptions import ValidationError

from dogtag.enforcement import actions, forms
from dogtag.enforcement.models import (
    BiteReport,
    Case,
    Citation,
    Complaint,
    Declaration,
    Impoundment,
    QuarantineOrder,
    Requirement,
)

NEW = {
    # url name: (form, action, title)
    "complaint-new": (forms.ComplaintForm, actions.record_complaint, "Record a complaint"),
    "impoundment-new": (forms.ImpoundForm, actions.impound, "Impound an animal"),
    "bite-new": (forms.BiteForm, actions.report_bite, "Report a bite"),
    "exposure-new": (forms.ExposureForm, actions.order_exposure_quarantine, "Quarantine after exposure to rabies"),
    "district-new": (forms.DistrictForm, actions.declare_district_quarantine, "District rabies quarantine"),
    "declaration-new": (forms.DeclareForm, actions.declare_dog, "Declare a dog dangerous or vicious"),
    "citation-new": (forms.CitationForm, actions.issue_citation, "Issue a citation"),
    "declared-elsewhere-new": (
        forms.DeclaredElsewhereForm,
        actions.register_declared_elsewhere,
        "A dog declared dangerous or vicious elsewhere",
    ),
}


def _latest(related):
    def pick(decl):
        obj = getattr(decl, related).order_by("-pk").first()
        if obj is None:
            raise ValidationError({"__all__": f"No {related[:-1]} is recorded on this declaration."})
        return obj

    return pick


def _on(pick, action):
    return lambda obj, **kw: action(pick(obj), **kw)


STEPS = {
    # url name: (url prefix, model, form, action, title)
    "case-close": ("cases", Case, forms.ReasonForm, actions.close_case, "Close"),
    "impoundment-notice": (
        "impoundments",
        Impoundment,
        forms.NoticeForm,
        actions.give_impound_notice,
        "Notice to the owner",
    ),
    "impoundment-release": (
        "impoundments",
        Impoundment,
        forms.ReleaseForm,
        actions.release_impoundment,
        "Release to the owner",
    ),
    "impoundment-dispose": (
        "impoundments",
        Impoundment,
        forms.DisposeForm,
        actions.dispose_unclaimed,
        "Unclaimed: disposition",
    ),
    "complaint-next-step": (
        "complaints",
        Complaint,
        forms.NoticeStepForm,
        actions.record_notice_step,
        "Written notice to the owner, then the repeat",
    ),
    "bite-identify": (
        "bites",
        BiteReport,
        forms.IdentifyForm,
        actions.identify_biting_animal,
        "Identify the animal",
    ),
    "bite-quarantine": (
        "bites",
        BiteReport,
        forms.QuarantineForm,
        actions.order_bite_quarantine,
        "Order the quarantine",
    ),
    "quarantine-delivery": (
        "quarantines",
        QuarantineOrder,
        forms.DeliveryForm,
        actions.record_delivery,
        "Delivered to isolation",
    ),
    "quarantine-examination": (
        "quarantines",
        QuarantineOrder,
        forms.ExaminationForm,
        actions.record_examination,
        "Record an examination",
    ),
    "quarantine-extend": (
        "quarantines",
        QuarantineOrder,
        forms.ExtendForm,
        actions.extend_quarantine,
        "Extend the isolation",
    ),
    "quarantine-release": (
        "quarantines",
        QuarantineOrder,
        forms.QuarantineReleaseForm,
        actions.release_quarantine,
        "Release from quarantine",
    ),
    "quarantine-symptoms": (
        "quarantines",
        QuarantineOrder,
        forms.SymptomsForm,
        actions.record_symptoms,
        "Symptoms, euthanasia and laboratory submission",
    ),
    "quarantine-lab-result": (
        "quarantines",
        QuarantineOrder,
        forms.LabResultForm,
        actions.record_lab_result,
        "Laboratory result",
    ),
    "declaration-serve": (
        "declarations",
        Declaration,
        forms.ServeForm,
        actions.serve_declaration,
        "Service of the determination",
    ),
    "declaration-hearing-request": (
        "declarations",
        Declaration,
        forms.HearingRequestForm,
        actions.request_hearing,
        "The owner's request for a hearing",
    ),
    "declaration-hearing": (
        "declarations",
        Declaration,
        forms.ScheduleHearingForm,
        actions.schedule_hearing,
        "Schedule the hearing",
    ),
    "declaration-hearing-decision": (
        "declarations",
        Declaration,
        forms.DecideHearingForm,
        _on(_latest("hearings"), actions.decide_hearing),
        "Hearing decision",
    ),
    "declaration-decision-received": (
        "declarations",
        Declaration,
        forms.DecisionReceivedForm,
        _on(_latest("hearings"), actions.record_decision_received),
        "Decision received by the owner",
    ),
    "declaration-appeal": ("declarations", Declaration, forms.AppealForm, actions.file_appeal, "Appeal"),
    "declaration-appeal-decision": (
        "declarations",
        Declaration,
        forms.DecideAppealForm,
        _on(_latest("appeals"), actions.decide_appeal),
        "Appeal decided",
    ),
    "declaration-removal": (
        "declarations",
        Declaration,
        forms.RemovalForm,
        actions.serve_removal_notice,
        "Written notice to remove the dog",
    ),
    "declaration-escape": (
        "declarations",
        Declaration,
        forms.EscapeNotificationForm,
        actions.record_escape_notification,
        "Escape, bite or attack: the notice to the police",
    ),
    "declaration-elsewhere-notice": (
        "declarations",
        Declaration,
        forms.ElsewhereNoticeForm,
        actions.record_elsewhere_notice,
        "The owner's notice of a dog declared elsewhere",
    ),
    "declaration-failure": (
        "declarations",
        Declaration,
        forms.FailureToComplyForm,
        actions.record_failure_to_comply,
        "Failure to comply: the license and permit revoked, the dog subject to seizure",
    ),
    "declaration-waiver": (
        "declarations",
        Declaration,
        forms.WaiverForm,
        actions.apply_for_waiver,
        "Application for a waiver",
    ),
    "requirement-proof": (
        "requirements",
        Requirement,
        forms.ProofForm,
        actions.record_requirement_proof,
        "Proof of compliance",
    ),
    "requirement-impose": (
        "requirements",
        Requirement,
        forms.ImposeForm,
        actions.impose_requirement,
        "Impose this requirement",
    ),
    "citation-paid": ("citations", Citation, forms.PaidForm, actions.record_citation_paid, "Forfeiture paid"),
    "citation-cure": ("citations", Citation, forms.CureForm, actions.record_cure, "Violation cured"),
    "citation-void": ("citations", Citation, forms.ReasonForm, actions.void_citation, "Void the citation"),
}

# Steps that undo a record (its submit button is labelled so and styled apart from the others).
DESTRUCTIVE_STEPS = {"citation-void": "Void"}
