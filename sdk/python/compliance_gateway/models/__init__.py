"""Contains all the data models used in inputs/outputs"""

from .accepted import Accepted
from .access_export import AccessExport
from .access_export_deposit import AccessExportDeposit
from .access_export_event import AccessExportEvent
from .access_export_event_data import AccessExportEventData
from .access_export_exclusion import AccessExportExclusion
from .access_export_identity import AccessExportIdentity
from .access_export_kyc_check import AccessExportKycCheck
from .access_export_limit import AccessExportLimit
from .access_export_register_check import AccessExportRegisterCheck
from .access_export_screening import AccessExportScreening
from .access_export_transaction import AccessExportTransaction
from .access_export_transaction_event import AccessExportTransactionEvent
from .access_export_withdrawal import AccessExportWithdrawal
from .access_request_file import AccessRequestFile
from .access_request_view import AccessRequestView
from .access_state import AccessState
from .account_changed import AccountChanged
from .account_frozen_data import AccountFrozenData
from .account_state import AccountState
from .admin_audit import AdminAudit
from .advance_sandbox_clock_body import AdvanceSandboxClockBody
from .alert_page import AlertPage
from .alert_view import AlertView
from .alert_view_explanation import AlertViewExplanation
from .aligned_part import AlignedPart
from .aml_alert_created_event import AmlAlertCreatedEvent
from .aml_alert_data import AmlAlertData
from .aml_case_page import AmlCasePage
from .aml_case_view import AmlCaseView
from .aml_event import AmlEvent
from .aml_event_event import AmlEventEvent
from .aml_event_type_name import AmlEventTypeName
from .aml_feedback import AmlFeedback
from .aml_outcome_name import AmlOutcomeName
from .aml_report_status import AmlReportStatus
from .approve_decision_body import ApproveDecisionBody
from .assign_case_body import AssignCaseBody
from .audit_entry import AuditEntry
from .case import Case
from .case_action import CaseAction
from .case_file import CaseFile
from .case_filings import CaseFilings
from .case_kind import CaseKind
from .case_list import CaseList
from .case_match import CaseMatch
from .case_reviewed import CaseReviewed
from .case_status import CaseStatus
from .case_summary import CaseSummary
from .case_type import CaseType
from .change_own_password_body import ChangeOwnPasswordBody
from .check import Check
from .check_deposit_body import CheckDepositBody
from .check_list import CheckList
from .check_registers_body import CheckRegistersBody
from .check_result import CheckResult
from .checks import Checks
from .closed import Closed
from .comment_on_case_body import CommentOnCaseBody
from .commit_deposit_body import CommitDepositBody
from .create_person_body import CreatePersonBody
from .create_tenant_body import CreateTenantBody
from .create_webhook_body import CreateWebhookBody
from .created_account import CreatedAccount
from .ctr_candidate import CtrCandidate
from .ctr_candidates import CtrCandidates
from .currency import Currency
from .daily_snapshot import DailySnapshot
from .decision import Decision
from .decision_page import DecisionPage
from .decision_replay import DecisionReplay
from .deleted import Deleted
from .delivery_attempt import DeliveryAttempt
from .delivery_log import DeliveryLog
from .delivery_status import DeliveryStatus
from .deposit_check import DepositCheck
from .deposit_committed import DepositCommitted
from .deposit_committed_status import DepositCommittedStatus
from .deposit_refusal import DepositRefusal
from .disabled_member import DisabledMember
from .disagreement_page import DisagreementPage
from .disagreement_view import DisagreementView
from .draft_case_filing_body import DraftCaseFilingBody
from .draft_ctr_filing_body import DraftCtrFilingBody
from .due_diligence_data import DueDiligenceData
from .duration import Duration
from .enabled import Enabled
from .endpoint_list import EndpointList
from .entry_topic import EntryTopic
from .environment import Environment
from .erasure_completed_data import ErasureCompletedData
from .erasure_state import ErasureState
from .erasure_view import ErasureView
from .error import Error
from .event_kind import EventKind
from .event_list import EventList
from .event_name import EventName
from .exclusion_created_event import ExclusionCreatedEvent
from .exclusion_data import ExclusionData
from .exclusion_expired_data import ExclusionExpiredData
from .exclusion_expired_event import ExclusionExpiredEvent
from .exclusion_kgc_synced_event import ExclusionKgcSyncedEvent
from .exclusion_permanent_event import ExclusionPermanentEvent
from .exclusion_reason import ExclusionReason
from .exclusion_registered import ExclusionRegistered
from .exclusion_row import ExclusionRow
from .export import Export
from .exported_exclusion import ExportedExclusion
from .filing_address import FilingAddress
from .filing_draft import FilingDraft
from .filing_problem import FilingProblem
from .filing_settings import FilingSettings
from .filing_subject import FilingSubject
from .filing_view import FilingView
from .fincen_settings import FincenSettings
from .gaming_day_body import GamingDayBody
from .get_exclusion_snapshot_snapshot import GetExclusionSnapshotSnapshot
from .get_open_api_response_200 import GetOpenApiResponse200
from .goaml_settings import GoamlSettings
from .goaml_settings_funds_codes import GoamlSettingsFundsCodes
from .goaml_settings_indicators import GoamlSettingsIndicators
from .goaml_settings_report_codes import GoamlSettingsReportCodes
from .health import Health
from .health_status import HealthStatus
from .held_class import HeldClass
from .identity_vendor_webhook_receipt import IdentityVendorWebhookReceipt
from .import_aml_rates_body import ImportAmlRatesBody
from .import_regulator_exclusions_body import ImportRegulatorExclusionsBody
from .jurisdiction_profile import JurisdictionProfile
from .jurisdiction_profile_aml import JurisdictionProfileAml
from .jurisdiction_profile_increase_cooloffs_item import (
    JurisdictionProfileIncreaseCooloffsItem,
)
from .key_created import KeyCreated
from .key_revoked import KeyRevoked
from .kyc_approved_data import KycApprovedData
from .kyc_approved_event import KycApprovedEvent
from .kyc_check import KycCheck
from .kyc_check_data import KycCheckData
from .kyc_check_status import KycCheckStatus
from .kyc_check_summary import KycCheckSummary
from .kyc_document import KycDocument
from .kyc_escalation import KycEscalation
from .kyc_expired_data import KycExpiredData
from .kyc_expired_event import KycExpiredEvent
from .kyc_rejected_data import KycRejectedData
from .kyc_rejected_event import KycRejectedEvent
from .kyc_reviewed import KycReviewed
from .kyc_started_event import KycStartedEvent
from .kyc_status import KycStatus
from .kyc_submitted_event import KycSubmittedEvent
from .kyc_tier_upgraded_data import KycTierUpgradedData
from .kyc_tier_upgraded_event import KycTierUpgradedEvent
from .kyc_tier_view import KycTierView
from .kyc_token import KycToken
from .limit_activated_data import LimitActivatedData
from .limit_activated_event import LimitActivatedEvent
from .limit_breach_attempt_event import LimitBreachAttemptEvent
from .limit_breach_data import LimitBreachData
from .limit_cancelled import LimitCancelled
from .limit_cancelled_data import LimitCancelledData
from .limit_cancelled_event import LimitCancelledEvent
from .limit_cancelled_status import LimitCancelledStatus
from .limit_changed_data import LimitChangedData
from .limit_created_event import LimitCreatedEvent
from .limit_decreased_event import LimitDecreasedEvent
from .limit_in_force import LimitInForce
from .limit_list import LimitList
from .limit_set import LimitSet
from .limit_type import LimitType
from .list_aml_cases_status import ListAmlCasesStatus
from .list_case_queue_status import ListCaseQueueStatus
from .list_case_queue_type import ListCaseQueueType
from .list_list import ListList
from .list_version import ListVersion
from .lists_check import ListsCheck
from .name_reading import NameReading
from .new_limit_status import NewLimitStatus
from .ofac_breakdown import OfacBreakdown
from .operation_name import OperationName
from .outcome import Outcome
from .own_alert_page import OwnAlertPage
from .own_alert_view import OwnAlertView
from .password_changed import PasswordChanged
from .payment_method_name import PaymentMethodName
from .pending_change import PendingChange
from .proposal_view import ProposalView
from .propose_decision_body import ProposeDecisionBody
from .queue import Queue
from .queue_row import QueueRow
from .rates_version import RatesVersion
from .rates_versions import RatesVersions
from .readiness import Readiness
from .readiness_status import ReadinessStatus
from .receive_identity_vendor_webhook_body import ReceiveIdentityVendorWebhookBody
from .redelivery import Redelivery
from .register_answer import RegisterAnswer
from .register_check import RegisterCheck
from .register_check_page import RegisterCheckPage
from .register_check_record import RegisterCheckRecord
from .register_exclusion_body import RegisterExclusionBody
from .register_identity import RegisterIdentity
from .register_setting import RegisterSetting
from .register_setting_credentials import RegisterSettingCredentials
from .register_view import RegisterView
from .regulator_import_entry import RegulatorImportEntry
from .regulator_imported import RegulatorImported
from .reject_proposal_body import RejectProposalBody
from .report_aml_event_body import ReportAmlEventBody
from .report_bundle import ReportBundle
from .report_bundle_explanations_item import ReportBundleExplanationsItem
from .report_bundle_transactions_item import ReportBundleTransactionsItem
from .request_erasure_as_admin_body import RequestErasureAsAdminBody
from .rescreen_body import RescreenBody
from .rescreen_done import RescreenDone
from .reset_own_totp_body import ResetOwnTotpBody
from .review_action import ReviewAction
from .review_case_body import ReviewCaseBody
from .review_kyc_manually_body import ReviewKycManuallyBody
from .review_kyc_manually_body_decision import ReviewKycManuallyBodyDecision
from .review_metrics import ReviewMetrics
from .rotated import Rotated
from .rules_identity import RulesIdentity
from .sanctions_account_frozen_event import SanctionsAccountFrozenEvent
from .sanctions_cleared_data import SanctionsClearedData
from .sanctions_cleared_event import SanctionsClearedEvent
from .sanctions_confirmed_data import SanctionsConfirmedData
from .sanctions_confirmed_event import SanctionsConfirmedEvent
from .sanctions_hit_data import SanctionsHitData
from .sanctions_hit_event import SanctionsHitEvent
from .sanctions_status import SanctionsStatus
from .sanctions_view import SanctionsView
from .sandbox_clock import SandboxClock
from .scheduled_run import ScheduledRun
from .score_breakdown import ScoreBreakdown
from .screen_user_body import ScreenUserBody
from .screened_identity import ScreenedIdentity
from .screening import Screening
from .screening_adverse_media_match_event import ScreeningAdverseMediaMatchEvent
from .screening_pep_match_event import ScreeningPepMatchEvent
from .screening_switches import ScreeningSwitches
from .search_hit import SearchHit
from .search_lists_mode import SearchListsMode
from .search_mode import SearchMode
from .search_results import SearchResults
from .session_ended import SessionEnded
from .session_started import SessionStarted
from .set_case_tags_body import SetCaseTagsBody
from .set_limit_body import SetLimitBody
from .set_tenant_filing_settings_body import SetTenantFilingSettingsBody
from .set_tenant_filing_settings_response_200 import SetTenantFilingSettingsResponse200
from .set_tenant_gaming_day_body import SetTenantGamingDayBody
from .set_tenant_rate_limit_body import SetTenantRateLimitBody
from .set_tenant_registers_body import SetTenantRegistersBody
from .set_tenant_screening_body import SetTenantScreeningBody
from .sign_in_body import SignInBody
from .snapshot_page import SnapshotPage
from .source_coverage import SourceCoverage
from .spelling import Spelling
from .start_kyc_body import StartKycBody
from .team import Team
from .team_member import TeamMember
from .tenant_audit import TenantAudit
from .tenant_created import TenantCreated
from .tenant_rate_limit import TenantRateLimit
from .tenant_registers import TenantRegisters
from .tenant_screening import TenantScreening
from .tenant_screening_request import TenantScreeningRequest
from .tenant_suspended import TenantSuspended
from .tier import Tier
from .timeline_entry import TimelineEntry
from .timeline_entry_detail import TimelineEntryDetail
from .totp_secret import TotpSecret
from .typology_feedback import TypologyFeedback
from .user_erasure_completed_event import UserErasureCompletedEvent
from .vendor_review_result import VendorReviewResult
from .webhook_delivery import WebhookDelivery
from .webhook_endpoint import WebhookEndpoint
from .webhook_registered import WebhookRegistered
from .withdrawal_answer import WithdrawalAnswer
from .withdrawal_status import WithdrawalStatus
from .withheld_kind import WithheldKind
from .withholding import Withholding
from .work_status import WorkStatus

__all__ = (
    "Accepted",
    "AccessExport",
    "AccessExportDeposit",
    "AccessExportEvent",
    "AccessExportEventData",
    "AccessExportExclusion",
    "AccessExportIdentity",
    "AccessExportKycCheck",
    "AccessExportLimit",
    "AccessExportRegisterCheck",
    "AccessExportScreening",
    "AccessExportTransaction",
    "AccessExportTransactionEvent",
    "AccessExportWithdrawal",
    "AccessRequestFile",
    "AccessRequestView",
    "AccessState",
    "AccountChanged",
    "AccountFrozenData",
    "AccountState",
    "AdminAudit",
    "AdvanceSandboxClockBody",
    "AlertPage",
    "AlertView",
    "AlertViewExplanation",
    "AlignedPart",
    "AmlAlertCreatedEvent",
    "AmlAlertData",
    "AmlCasePage",
    "AmlCaseView",
    "AmlEvent",
    "AmlEventEvent",
    "AmlEventTypeName",
    "AmlFeedback",
    "AmlOutcomeName",
    "AmlReportStatus",
    "ApproveDecisionBody",
    "AssignCaseBody",
    "AuditEntry",
    "Case",
    "CaseAction",
    "CaseFile",
    "CaseFilings",
    "CaseKind",
    "CaseList",
    "CaseMatch",
    "CaseReviewed",
    "CaseStatus",
    "CaseSummary",
    "CaseType",
    "ChangeOwnPasswordBody",
    "Check",
    "CheckDepositBody",
    "CheckList",
    "CheckRegistersBody",
    "CheckResult",
    "Checks",
    "Closed",
    "CommentOnCaseBody",
    "CommitDepositBody",
    "CreatePersonBody",
    "CreateTenantBody",
    "CreateWebhookBody",
    "CreatedAccount",
    "CtrCandidate",
    "CtrCandidates",
    "Currency",
    "DailySnapshot",
    "Decision",
    "DecisionPage",
    "DecisionReplay",
    "Deleted",
    "DeliveryAttempt",
    "DeliveryLog",
    "DeliveryStatus",
    "DepositCheck",
    "DepositCommitted",
    "DepositCommittedStatus",
    "DepositRefusal",
    "DisabledMember",
    "DisagreementPage",
    "DisagreementView",
    "DraftCaseFilingBody",
    "DraftCtrFilingBody",
    "DueDiligenceData",
    "Duration",
    "Enabled",
    "EndpointList",
    "EntryTopic",
    "Environment",
    "ErasureCompletedData",
    "ErasureState",
    "ErasureView",
    "Error",
    "EventKind",
    "EventList",
    "EventName",
    "ExclusionCreatedEvent",
    "ExclusionData",
    "ExclusionExpiredData",
    "ExclusionExpiredEvent",
    "ExclusionKgcSyncedEvent",
    "ExclusionPermanentEvent",
    "ExclusionReason",
    "ExclusionRegistered",
    "ExclusionRow",
    "Export",
    "ExportedExclusion",
    "FilingAddress",
    "FilingDraft",
    "FilingProblem",
    "FilingSettings",
    "FilingSubject",
    "FilingView",
    "FincenSettings",
    "GamingDayBody",
    "GetExclusionSnapshotSnapshot",
    "GetOpenApiResponse200",
    "GoamlSettings",
    "GoamlSettingsFundsCodes",
    "GoamlSettingsIndicators",
    "GoamlSettingsReportCodes",
    "Health",
    "HealthStatus",
    "HeldClass",
    "IdentityVendorWebhookReceipt",
    "ImportAmlRatesBody",
    "ImportRegulatorExclusionsBody",
    "JurisdictionProfile",
    "JurisdictionProfileAml",
    "JurisdictionProfileIncreaseCooloffsItem",
    "KeyCreated",
    "KeyRevoked",
    "KycApprovedData",
    "KycApprovedEvent",
    "KycCheck",
    "KycCheckData",
    "KycCheckStatus",
    "KycCheckSummary",
    "KycDocument",
    "KycEscalation",
    "KycExpiredData",
    "KycExpiredEvent",
    "KycRejectedData",
    "KycRejectedEvent",
    "KycReviewed",
    "KycStartedEvent",
    "KycStatus",
    "KycSubmittedEvent",
    "KycTierUpgradedData",
    "KycTierUpgradedEvent",
    "KycTierView",
    "KycToken",
    "LimitActivatedData",
    "LimitActivatedEvent",
    "LimitBreachAttemptEvent",
    "LimitBreachData",
    "LimitCancelled",
    "LimitCancelledData",
    "LimitCancelledEvent",
    "LimitCancelledStatus",
    "LimitChangedData",
    "LimitCreatedEvent",
    "LimitDecreasedEvent",
    "LimitInForce",
    "LimitList",
    "LimitSet",
    "LimitType",
    "ListAmlCasesStatus",
    "ListCaseQueueStatus",
    "ListCaseQueueType",
    "ListList",
    "ListVersion",
    "ListsCheck",
    "NameReading",
    "NewLimitStatus",
    "OfacBreakdown",
    "OperationName",
    "Outcome",
    "OwnAlertPage",
    "OwnAlertView",
    "PasswordChanged",
    "PaymentMethodName",
    "PendingChange",
    "ProposalView",
    "ProposeDecisionBody",
    "Queue",
    "QueueRow",
    "RatesVersion",
    "RatesVersions",
    "Readiness",
    "ReadinessStatus",
    "ReceiveIdentityVendorWebhookBody",
    "Redelivery",
    "RegisterAnswer",
    "RegisterCheck",
    "RegisterCheckPage",
    "RegisterCheckRecord",
    "RegisterExclusionBody",
    "RegisterIdentity",
    "RegisterSetting",
    "RegisterSettingCredentials",
    "RegisterView",
    "RegulatorImportEntry",
    "RegulatorImported",
    "RejectProposalBody",
    "ReportAmlEventBody",
    "ReportBundle",
    "ReportBundleExplanationsItem",
    "ReportBundleTransactionsItem",
    "RequestErasureAsAdminBody",
    "RescreenBody",
    "RescreenDone",
    "ResetOwnTotpBody",
    "ReviewAction",
    "ReviewCaseBody",
    "ReviewKycManuallyBody",
    "ReviewKycManuallyBodyDecision",
    "ReviewMetrics",
    "Rotated",
    "RulesIdentity",
    "SanctionsAccountFrozenEvent",
    "SanctionsClearedData",
    "SanctionsClearedEvent",
    "SanctionsConfirmedData",
    "SanctionsConfirmedEvent",
    "SanctionsHitData",
    "SanctionsHitEvent",
    "SanctionsStatus",
    "SanctionsView",
    "SandboxClock",
    "ScheduledRun",
    "ScoreBreakdown",
    "ScreenUserBody",
    "ScreenedIdentity",
    "Screening",
    "ScreeningAdverseMediaMatchEvent",
    "ScreeningPepMatchEvent",
    "ScreeningSwitches",
    "SearchHit",
    "SearchListsMode",
    "SearchMode",
    "SearchResults",
    "SessionEnded",
    "SessionStarted",
    "SetCaseTagsBody",
    "SetLimitBody",
    "SetTenantFilingSettingsBody",
    "SetTenantFilingSettingsResponse200",
    "SetTenantGamingDayBody",
    "SetTenantRateLimitBody",
    "SetTenantRegistersBody",
    "SetTenantScreeningBody",
    "SignInBody",
    "SnapshotPage",
    "SourceCoverage",
    "Spelling",
    "StartKycBody",
    "Team",
    "TeamMember",
    "TenantAudit",
    "TenantCreated",
    "TenantRateLimit",
    "TenantRegisters",
    "TenantScreening",
    "TenantScreeningRequest",
    "TenantSuspended",
    "Tier",
    "TimelineEntry",
    "TimelineEntryDetail",
    "TotpSecret",
    "TypologyFeedback",
    "UserErasureCompletedEvent",
    "VendorReviewResult",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookRegistered",
    "WithdrawalAnswer",
    "WithdrawalStatus",
    "WithheldKind",
    "Withholding",
    "WorkStatus",
)
