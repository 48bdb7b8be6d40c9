"""Contains all the data models used in inputs/outputs"""

from .account_frozen_data import AccountFrozenData
from .advance_sandbox_clock_body import AdvanceSandboxClockBody
from .advance_sandbox_clock_response_200 import AdvanceSandboxClockResponse200
from .alert_view import AlertView
from .alert_view_explanation import AlertViewExplanation
from .aligned_part import AlignedPart
from .aml_alert_created_event import AmlAlertCreatedEvent
from .aml_alert_data import AmlAlertData
from .aml_case_view import AmlCaseView
from .aml_event import AmlEvent
from .aml_event_event import AmlEventEvent
from .aml_event_type_name import AmlEventTypeName
from .aml_feedback import AmlFeedback
from .aml_outcome_name import AmlOutcomeName
from .aml_report_status import AmlReportStatus
from .approve_decision_body import ApproveDecisionBody
from .approve_decision_response_200 import ApproveDecisionResponse200
from .assign_case_body import AssignCaseBody
from .assign_case_response_200 import AssignCaseResponse200
from .audit_entry import AuditEntry
from .cancel_limit_response_200 import CancelLimitResponse200
from .cancel_limit_response_200_status import CancelLimitResponse200Status
from .case_kind import CaseKind
from .case_match import CaseMatch
from .case_status import CaseStatus
from .case_summary import CaseSummary
from .case_type import CaseType
from .change_own_password_body import ChangeOwnPasswordBody
from .change_own_password_response_200 import ChangeOwnPasswordResponse200
from .check import Check
from .check_deposit_body import CheckDepositBody
from .check_deposit_response_200 import CheckDepositResponse200
from .check_exclusion_response_200 import CheckExclusionResponse200
from .checks import Checks
from .close_user_response_200 import CloseUserResponse200
from .comment_on_case_body import CommentOnCaseBody
from .comment_on_case_response_200 import CommentOnCaseResponse200
from .comment_on_case_response_201 import CommentOnCaseResponse201
from .commit_deposit_body import CommitDepositBody
from .commit_deposit_response_200 import CommitDepositResponse200
from .commit_deposit_response_200_status import CommitDepositResponse200Status
from .commit_deposit_response_201 import CommitDepositResponse201
from .commit_deposit_response_201_status import CommitDepositResponse201Status
from .create_key_response_201 import CreateKeyResponse201
from .create_person_body import CreatePersonBody
from .create_person_response_201 import CreatePersonResponse201
from .create_tenant_body import CreateTenantBody
from .create_tenant_response_201 import CreateTenantResponse201
from .create_webhook_body import CreateWebhookBody
from .create_webhook_response_201 import CreateWebhookResponse201
from .ctr_candidate import CtrCandidate
from .currency import Currency
from .daily_snapshot import DailySnapshot
from .decision import Decision
from .delete_webhook_response_200 import DeleteWebhookResponse200
from .delivery_attempt import DeliveryAttempt
from .delivery_status import DeliveryStatus
from .deposit_refusal import DepositRefusal
from .disagreement_view import DisagreementView
from .draft_case_filing_body import DraftCaseFilingBody
from .draft_case_filing_response_201 import DraftCaseFilingResponse201
from .draft_ctr_filing_body import DraftCtrFilingBody
from .draft_ctr_filing_response_201 import DraftCtrFilingResponse201
from .due_diligence_data import DueDiligenceData
from .duration import Duration
from .enable_webhook_response_200 import EnableWebhookResponse200
from .entry_topic import EntryTopic
from .environment import Environment
from .erasure_completed_data import ErasureCompletedData
from .erasure_state import ErasureState
from .error import Error
from .event_kind import EventKind
from .event_name import EventName
from .exclusion_created_event import ExclusionCreatedEvent
from .exclusion_data import ExclusionData
from .exclusion_expired_data import ExclusionExpiredData
from .exclusion_expired_event import ExclusionExpiredEvent
from .exclusion_kgc_synced_event import ExclusionKgcSyncedEvent
from .exclusion_permanent_event import ExclusionPermanentEvent
from .exclusion_reason import ExclusionReason
from .exclusion_row import ExclusionRow
from .export_to_regulator_response_200 import ExportToRegulatorResponse200
from .exported_exclusion import ExportedExclusion
from .filing_address import FilingAddress
from .filing_problem import FilingProblem
from .filing_settings import FilingSettings
from .filing_subject import FilingSubject
from .filing_view import FilingView
from .fincen_settings import FincenSettings
from .get_admin_audit_response_200 import GetAdminAuditResponse200
from .get_aml_report_bundle_response_200 import GetAmlReportBundleResponse200
from .get_aml_report_bundle_response_200_explanations_item import (
    GetAmlReportBundleResponse200ExplanationsItem,
)
from .get_aml_report_bundle_response_200_transactions_item import (
    GetAmlReportBundleResponse200TransactionsItem,
)
from .get_case_file_response_200 import GetCaseFileResponse200
from .get_case_response_200 import GetCaseResponse200
from .get_decision_response_200 import GetDecisionResponse200
from .get_erasure_response_200 import GetErasureResponse200
from .get_exclusion_snapshot_response_200 import GetExclusionSnapshotResponse200
from .get_exclusion_snapshot_snapshot import GetExclusionSnapshotSnapshot
from .get_health_response_200 import GetHealthResponse200
from .get_health_response_200_status import GetHealthResponse200Status
from .get_kyc_status_response_200 import GetKycStatusResponse200
from .get_kyc_tier_response_200 import GetKycTierResponse200
from .get_open_api_response_200 import GetOpenApiResponse200
from .get_own_audit_response_200 import GetOwnAuditResponse200
from .get_readiness_response_200 import GetReadinessResponse200
from .get_readiness_response_200_status import GetReadinessResponse200Status
from .get_readiness_response_503 import GetReadinessResponse503
from .get_readiness_response_503_status import GetReadinessResponse503Status
from .get_review_metrics_response_200 import GetReviewMetricsResponse200
from .get_rules_response_200 import GetRulesResponse200
from .get_sanctions_status_response_200 import GetSanctionsStatusResponse200
from .get_sandbox_clock_response_200 import GetSandboxClockResponse200
from .get_tenant_audit_response_200 import GetTenantAuditResponse200
from .goaml_settings import GoamlSettings
from .goaml_settings_funds_codes import GoamlSettingsFundsCodes
from .goaml_settings_indicators import GoamlSettingsIndicators
from .goaml_settings_report_codes import GoamlSettingsReportCodes
from .held_class import HeldClass
from .import_aml_rates_body import ImportAmlRatesBody
from .import_aml_rates_response_200 import ImportAmlRatesResponse200
from .import_aml_rates_response_201 import ImportAmlRatesResponse201
from .import_regulator_exclusions_body import ImportRegulatorExclusionsBody
from .import_regulator_exclusions_response_200 import (
    ImportRegulatorExclusionsResponse200,
)
from .issue_kyc_token_response_200 import IssueKycTokenResponse200
from .jurisdiction_profile import JurisdictionProfile
from .jurisdiction_profile_aml import JurisdictionProfileAml
from .jurisdiction_profile_increase_cooloffs_item import (
    JurisdictionProfileIncreaseCooloffsItem,
)
from .kyc_approved_data import KycApprovedData
from .kyc_approved_event import KycApprovedEvent
from .kyc_check_data import KycCheckData
from .kyc_check_summary import KycCheckSummary
from .kyc_document import KycDocument
from .kyc_escalation import KycEscalation
from .kyc_expired_data import KycExpiredData
from .kyc_expired_event import KycExpiredEvent
from .kyc_rejected_data import KycRejectedData
from .kyc_rejected_event import KycRejectedEvent
from .kyc_started_event import KycStartedEvent
from .kyc_status import KycStatus
from .kyc_submitted_event import KycSubmittedEvent
from .kyc_tier_upgraded_data import KycTierUpgradedData
from .kyc_tier_upgraded_event import KycTierUpgradedEvent
from .limit_activated_data import LimitActivatedData
from .limit_activated_event import LimitActivatedEvent
from .limit_breach_attempt_event import LimitBreachAttemptEvent
from .limit_breach_data import LimitBreachData
from .limit_cancelled_data import LimitCancelledData
from .limit_cancelled_event import LimitCancelledEvent
from .limit_changed_data import LimitChangedData
from .limit_created_event import LimitCreatedEvent
from .limit_decreased_event import LimitDecreasedEvent
from .limit_in_force import LimitInForce
from .limit_type import LimitType
from .list_aml_alerts_response_200 import ListAmlAlertsResponse200
from .list_aml_cases_response_200 import ListAmlCasesResponse200
from .list_aml_cases_status import ListAmlCasesStatus
from .list_aml_events_response_200 import ListAmlEventsResponse200
from .list_aml_rates_response_200 import ListAmlRatesResponse200
from .list_aml_shadow_disagreements_response_200 import (
    ListAmlShadowDisagreementsResponse200,
)
from .list_case_filings_response_200 import ListCaseFilingsResponse200
from .list_case_queue_response_200 import ListCaseQueueResponse200
from .list_case_queue_status import ListCaseQueueStatus
from .list_case_queue_type import ListCaseQueueType
from .list_cases_response_200 import ListCasesResponse200
from .list_ctr_candidates_response_200 import ListCtrCandidatesResponse200
from .list_decisions_response_200 import ListDecisionsResponse200
from .list_deliveries_response_200 import ListDeliveriesResponse200
from .list_kyc_checks_response_200 import ListKycChecksResponse200
from .list_limits_response_200 import ListLimitsResponse200
from .list_lists_response_200 import ListListsResponse200
from .list_own_aml_alerts_response_200 import ListOwnAmlAlertsResponse200
from .list_people_response_200 import ListPeopleResponse200
from .list_version import ListVersion
from .list_webhooks_response_200 import ListWebhooksResponse200
from .lists_check import ListsCheck
from .name_reading import NameReading
from .new_limit_status import NewLimitStatus
from .ofac_breakdown import OfacBreakdown
from .operation_name import OperationName
from .outcome import Outcome
from .own_alert_view import OwnAlertView
from .payment_method_name import PaymentMethodName
from .pending_change import PendingChange
from .proposal_view import ProposalView
from .propose_decision_body import ProposeDecisionBody
from .propose_decision_response_200 import ProposeDecisionResponse200
from .propose_decision_response_201 import ProposeDecisionResponse201
from .queue_row import QueueRow
from .rates_version import RatesVersion
from .receive_identity_vendor_webhook_body import ReceiveIdentityVendorWebhookBody
from .receive_identity_vendor_webhook_response_200 import (
    ReceiveIdentityVendorWebhookResponse200,
)
from .redeliver_response_200 import RedeliverResponse200
from .redeliver_response_202 import RedeliverResponse202
from .register_exclusion_body import RegisterExclusionBody
from .register_exclusion_response_200 import RegisterExclusionResponse200
from .register_exclusion_response_201 import RegisterExclusionResponse201
from .regulator_import_entry import RegulatorImportEntry
from .reject_proposal_body import RejectProposalBody
from .reject_proposal_response_200 import RejectProposalResponse200
from .replay_decision_response_200 import ReplayDecisionResponse200
from .report_aml_event_body import ReportAmlEventBody
from .report_aml_event_response_200 import ReportAmlEventResponse200
from .report_aml_event_response_202 import ReportAmlEventResponse202
from .request_erasure_as_admin_body import RequestErasureAsAdminBody
from .request_erasure_as_admin_response_200 import RequestErasureAsAdminResponse200
from .request_erasure_as_admin_response_202 import RequestErasureAsAdminResponse202
from .request_erasure_response_200 import RequestErasureResponse200
from .request_erasure_response_202 import RequestErasureResponse202
from .rescreen_body import RescreenBody
from .rescreen_response_200 import RescreenResponse200
from .reset_own_totp_body import ResetOwnTotpBody
from .reset_own_totp_response_200 import ResetOwnTotpResponse200
from .review_action import ReviewAction
from .review_case_body import ReviewCaseBody
from .review_case_response_200 import ReviewCaseResponse200
from .review_kyc_manually_body import ReviewKycManuallyBody
from .review_kyc_manually_body_decision import ReviewKycManuallyBodyDecision
from .review_kyc_manually_response_200 import ReviewKycManuallyResponse200
from .revoke_key_response_200 import RevokeKeyResponse200
from .rotate_webhook_secret_response_200 import RotateWebhookSecretResponse200
from .run_scheduled_response_200 import RunScheduledResponse200
from .sanctions_account_frozen_event import SanctionsAccountFrozenEvent
from .sanctions_cleared_data import SanctionsClearedData
from .sanctions_cleared_event import SanctionsClearedEvent
from .sanctions_confirmed_data import SanctionsConfirmedData
from .sanctions_confirmed_event import SanctionsConfirmedEvent
from .sanctions_hit_data import SanctionsHitData
from .sanctions_hit_event import SanctionsHitEvent
from .sanctions_status import SanctionsStatus
from .score_breakdown import ScoreBreakdown
from .screen_user_body import ScreenUserBody
from .screen_user_response_200 import ScreenUserResponse200
from .screen_user_response_201 import ScreenUserResponse201
from .screened_identity import ScreenedIdentity
from .screening_adverse_media_match_event import ScreeningAdverseMediaMatchEvent
from .screening_pep_match_event import ScreeningPepMatchEvent
from .screening_switches import ScreeningSwitches
from .search_hit import SearchHit
from .search_lists_mode import SearchListsMode
from .search_lists_response_200 import SearchListsResponse200
from .search_mode import SearchMode
from .set_case_tags_body import SetCaseTagsBody
from .set_case_tags_response_200 import SetCaseTagsResponse200
from .set_limit_body import SetLimitBody
from .set_limit_response_200 import SetLimitResponse200
from .set_limit_response_201 import SetLimitResponse201
from .set_tenant_filing_settings_body import SetTenantFilingSettingsBody
from .set_tenant_filing_settings_response_200 import SetTenantFilingSettingsResponse200
from .set_tenant_gaming_day_body import SetTenantGamingDayBody
from .set_tenant_gaming_day_response_200 import SetTenantGamingDayResponse200
from .set_tenant_rate_limit_body import SetTenantRateLimitBody
from .set_tenant_rate_limit_response_200 import SetTenantRateLimitResponse200
from .set_tenant_screening_body import SetTenantScreeningBody
from .set_tenant_screening_response_200 import SetTenantScreeningResponse200
from .sign_in_body import SignInBody
from .sign_in_response_201 import SignInResponse201
from .sign_out_response_200 import SignOutResponse200
from .source_coverage import SourceCoverage
from .spelling import Spelling
from .start_kyc_body import StartKycBody
from .start_kyc_response_200 import StartKycResponse200
from .start_kyc_response_201 import StartKycResponse201
from .submit_sandbox_kyc_response_200 import SubmitSandboxKycResponse200
from .submit_sandbox_kyc_response_202 import SubmitSandboxKycResponse202
from .suspend_tenant_response_200 import SuspendTenantResponse200
from .take_case_response_200 import TakeCaseResponse200
from .team_member import TeamMember
from .tenant_screening_request import TenantScreeningRequest
from .tier import Tier
from .timeline_entry import TimelineEntry
from .timeline_entry_detail import TimelineEntryDetail
from .typology_feedback import TypologyFeedback
from .unassign_case_response_200 import UnassignCaseResponse200
from .user_erasure_completed_event import UserErasureCompletedEvent
from .vendor_review_result import VendorReviewResult
from .webhook_delivery import WebhookDelivery
from .webhook_endpoint import WebhookEndpoint
from .withdrawal_status import WithdrawalStatus
from .work_status import WorkStatus

__all__ = (
    "AccountFrozenData",
    "AdvanceSandboxClockBody",
    "AdvanceSandboxClockResponse200",
    "AlertView",
    "AlertViewExplanation",
    "AlignedPart",
    "AmlAlertCreatedEvent",
    "AmlAlertData",
    "AmlCaseView",
    "AmlEvent",
    "AmlEventEvent",
    "AmlEventTypeName",
    "AmlFeedback",
    "AmlOutcomeName",
    "AmlReportStatus",
    "ApproveDecisionBody",
    "ApproveDecisionResponse200",
    "AssignCaseBody",
    "AssignCaseResponse200",
    "AuditEntry",
    "CancelLimitResponse200",
    "CancelLimitResponse200Status",
    "CaseKind",
    "CaseMatch",
    "CaseStatus",
    "CaseSummary",
    "CaseType",
    "ChangeOwnPasswordBody",
    "ChangeOwnPasswordResponse200",
    "Check",
    "CheckDepositBody",
    "CheckDepositResponse200",
    "CheckExclusionResponse200",
    "Checks",
    "CloseUserResponse200",
    "CommentOnCaseBody",
    "CommentOnCaseResponse200",
    "CommentOnCaseResponse201",
    "CommitDepositBody",
    "CommitDepositResponse200",
    "CommitDepositResponse200Status",
    "CommitDepositResponse201",
    "CommitDepositResponse201Status",
    "CreateKeyResponse201",
    "CreatePersonBody",
    "CreatePersonResponse201",
    "CreateTenantBody",
    "CreateTenantResponse201",
    "CreateWebhookBody",
    "CreateWebhookResponse201",
    "CtrCandidate",
    "Currency",
    "DailySnapshot",
    "Decision",
    "DeleteWebhookResponse200",
    "DeliveryAttempt",
    "DeliveryStatus",
    "DepositRefusal",
    "DisagreementView",
    "DraftCaseFilingBody",
    "DraftCaseFilingResponse201",
    "DraftCtrFilingBody",
    "DraftCtrFilingResponse201",
    "DueDiligenceData",
    "Duration",
    "EnableWebhookResponse200",
    "EntryTopic",
    "Environment",
    "ErasureCompletedData",
    "ErasureState",
    "Error",
    "EventKind",
    "EventName",
    "ExclusionCreatedEvent",
    "ExclusionData",
    "ExclusionExpiredData",
    "ExclusionExpiredEvent",
    "ExclusionKgcSyncedEvent",
    "ExclusionPermanentEvent",
    "ExclusionReason",
    "ExclusionRow",
    "ExportToRegulatorResponse200",
    "ExportedExclusion",
    "FilingAddress",
    "FilingProblem",
    "FilingSettings",
    "FilingSubject",
    "FilingView",
    "FincenSettings",
    "GetAdminAuditResponse200",
    "GetAmlReportBundleResponse200",
    "GetAmlReportBundleResponse200ExplanationsItem",
    "GetAmlReportBundleResponse200TransactionsItem",
    "GetCaseFileResponse200",
    "GetCaseResponse200",
    "GetDecisionResponse200",
    "GetErasureResponse200",
    "GetExclusionSnapshotResponse200",
    "GetExclusionSnapshotSnapshot",
    "GetHealthResponse200",
    "GetHealthResponse200Status",
    "GetKycStatusResponse200",
    "GetKycTierResponse200",
    "GetOpenApiResponse200",
    "GetOwnAuditResponse200",
    "GetReadinessResponse200",
    "GetReadinessResponse200Status",
    "GetReadinessResponse503",
    "GetReadinessResponse503Status",
    "GetReviewMetricsResponse200",
    "GetRulesResponse200",
    "GetSanctionsStatusResponse200",
    "GetSandboxClockResponse200",
    "GetTenantAuditResponse200",
    "GoamlSettings",
    "GoamlSettingsFundsCodes",
    "GoamlSettingsIndicators",
    "GoamlSettingsReportCodes",
    "HeldClass",
    "ImportAmlRatesBody",
    "ImportAmlRatesResponse200",
    "ImportAmlRatesResponse201",
    "ImportRegulatorExclusionsBody",
    "ImportRegulatorExclusionsResponse200",
    "IssueKycTokenResponse200",
    "JurisdictionProfile",
    "JurisdictionProfileAml",
    "JurisdictionProfileIncreaseCooloffsItem",
    "KycApprovedData",
    "KycApprovedEvent",
    "KycCheckData",
    "KycCheckSummary",
    "KycDocument",
    "KycEscalation",
    "KycExpiredData",
    "KycExpiredEvent",
    "KycRejectedData",
    "KycRejectedEvent",
    "KycStartedEvent",
    "KycStatus",
    "KycSubmittedEvent",
    "KycTierUpgradedData",
    "KycTierUpgradedEvent",
    "LimitActivatedData",
    "LimitActivatedEvent",
    "LimitBreachAttemptEvent",
    "LimitBreachData",
    "LimitCancelledData",
    "LimitCancelledEvent",
    "LimitChangedData",
    "LimitCreatedEvent",
    "LimitDecreasedEvent",
    "LimitInForce",
    "LimitType",
    "ListAmlAlertsResponse200",
    "ListAmlCasesResponse200",
    "ListAmlCasesStatus",
    "ListAmlEventsResponse200",
    "ListAmlRatesResponse200",
    "ListAmlShadowDisagreementsResponse200",
    "ListCaseFilingsResponse200",
    "ListCaseQueueResponse200",
    "ListCaseQueueStatus",
    "ListCaseQueueType",
    "ListCasesResponse200",
    "ListCtrCandidatesResponse200",
    "ListDecisionsResponse200",
    "ListDeliveriesResponse200",
    "ListKycChecksResponse200",
    "ListLimitsResponse200",
    "ListListsResponse200",
    "ListOwnAmlAlertsResponse200",
    "ListPeopleResponse200",
    "ListVersion",
    "ListWebhooksResponse200",
    "ListsCheck",
    "NameReading",
    "NewLimitStatus",
    "OfacBreakdown",
    "OperationName",
    "Outcome",
    "OwnAlertView",
    "PaymentMethodName",
    "PendingChange",
    "ProposalView",
    "ProposeDecisionBody",
    "ProposeDecisionResponse200",
    "ProposeDecisionResponse201",
    "QueueRow",
    "RatesVersion",
    "ReceiveIdentityVendorWebhookBody",
    "ReceiveIdentityVendorWebhookResponse200",
    "RedeliverResponse200",
    "RedeliverResponse202",
    "RegisterExclusionBody",
    "RegisterExclusionResponse200",
    "RegisterExclusionResponse201",
    "RegulatorImportEntry",
    "RejectProposalBody",
    "RejectProposalResponse200",
    "ReplayDecisionResponse200",
    "ReportAmlEventBody",
    "ReportAmlEventResponse200",
    "ReportAmlEventResponse202",
    "RequestErasureAsAdminBody",
    "RequestErasureAsAdminResponse200",
    "RequestErasureAsAdminResponse202",
    "RequestErasureResponse200",
    "RequestErasureResponse202",
    "RescreenBody",
    "RescreenResponse200",
    "ResetOwnTotpBody",
    "ResetOwnTotpResponse200",
    "ReviewAction",
    "ReviewCaseBody",
    "ReviewCaseResponse200",
    "ReviewKycManuallyBody",
    "ReviewKycManuallyBodyDecision",
    "ReviewKycManuallyResponse200",
    "RevokeKeyResponse200",
    "RotateWebhookSecretResponse200",
    "RunScheduledResponse200",
    "SanctionsAccountFrozenEvent",
    "SanctionsClearedData",
    "SanctionsClearedEvent",
    "SanctionsConfirmedData",
    "SanctionsConfirmedEvent",
    "SanctionsHitData",
    "SanctionsHitEvent",
    "SanctionsStatus",
    "ScoreBreakdown",
    "ScreenUserBody",
    "ScreenUserResponse200",
    "ScreenUserResponse201",
    "ScreenedIdentity",
    "ScreeningAdverseMediaMatchEvent",
    "ScreeningPepMatchEvent",
    "ScreeningSwitches",
    "SearchHit",
    "SearchListsMode",
    "SearchListsResponse200",
    "SearchMode",
    "SetCaseTagsBody",
    "SetCaseTagsResponse200",
    "SetLimitBody",
    "SetLimitResponse200",
    "SetLimitResponse201",
    "SetTenantFilingSettingsBody",
    "SetTenantFilingSettingsResponse200",
    "SetTenantGamingDayBody",
    "SetTenantGamingDayResponse200",
    "SetTenantRateLimitBody",
    "SetTenantRateLimitResponse200",
    "SetTenantScreeningBody",
    "SetTenantScreeningResponse200",
    "SignInBody",
    "SignInResponse201",
    "SignOutResponse200",
    "SourceCoverage",
    "Spelling",
    "StartKycBody",
    "StartKycResponse200",
    "StartKycResponse201",
    "SubmitSandboxKycResponse200",
    "SubmitSandboxKycResponse202",
    "SuspendTenantResponse200",
    "TakeCaseResponse200",
    "TeamMember",
    "TenantScreeningRequest",
    "Tier",
    "TimelineEntry",
    "TimelineEntryDetail",
    "TypologyFeedback",
    "UnassignCaseResponse200",
    "UserErasureCompletedEvent",
    "VendorReviewResult",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WithdrawalStatus",
    "WorkStatus",
)
