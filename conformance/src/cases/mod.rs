//! Every conformance case, by area. One case per spec row or decision,
//! with its negative twin beside it.

mod aml;
mod audit;
mod auth;
mod basics;
mod erasure;
mod exclusions;
mod filings;
mod kyc;
mod limits;
mod lists;
mod people;
mod queries;
mod review;
mod sanctions;
mod scheduled;
mod webhooks;

use crate::Case;

macro_rules! cases {
    ($($module:ident :: $name:ident),* $(,)?) => {
        pub const ALL: &[Case] = &[$(Case { name: concat!(stringify!($module), "::", stringify!($name)), run: $module::$name }),*];
    };
}

cases![
    queries::each_kind_of_query_value_keeps_its_code,
    queries::a_cursor_is_one_this_service_issued,
    queries::a_required_query_parameter_left_out_is_missing,
    filings::a_case_drafts_a_fincen_sar,
    filings::a_ctr_candidate_drafts_a_fincen_ctr,
    filings::goaml_reports_follow_the_fiu_profile,
    filings::filings_are_the_teams_alone,
    filings::goaml_names_a_missing_id_number_its_profile_requires,
    filings::the_console_shows_a_cases_filings_and_serves_each_draft,
    erasure::unknown_users_are_404_and_a_repeat_answers_the_same_job,
    erasure::close_records_the_relationship_end_once,
    erasure::another_tenant_or_environment_never_reaches_a_job,
    erasure::the_sandbox_clock_drives_a_held_erasure_to_its_end,
    erasure::an_exclusion_in_force_is_refused_and_aml_material_is_never_named,
    erasure::a_restricted_player_is_hidden_from_operator_reads,
    erasure::a_restricted_players_screening_is_never_replayed,
    erasure::a_restricted_player_is_never_rescreened,
    erasure::a_restricted_players_case_is_still_decided,
    erasure::a_restricted_players_check_and_sanctions_case_are_still_decided,
    erasure::erasure_finds_the_player_by_the_exact_id,
    erasure::shared_exclusion_events_of_an_erased_player_are_expunged_everywhere,
    erasure::an_erased_player_can_self_exclude_again_at_once,
    erasure::a_pending_exclusion_event_is_still_sent_after_an_erasure_minimised,
    basics::health_is_public_and_unauthenticated,
    basics::unknown_path_is_404_with_error_body,
    basics::wrong_method_is_405_with_allow,
    basics::malformed_json_is_400_invalid_json,
    basics::non_json_content_type_is_415,
    basics::oversized_body_is_413,
    basics::rules_endpoint_reports_version_and_hash,
    basics::openapi_document_is_public_and_names_every_area,
    basics::query_parameter_without_value_is_400,
    basics::integers_with_a_zero_fraction_are_integers,
    basics::nul_in_text_is_400,
    basics::vendor_webhook_without_a_vendor_is_404,
    auth::missing_header_is_missing_credentials,
    auth::malformed_unknown_and_wrong_scheme_keys_are_invalid_credentials,
    auth::revoked_key_is_refused_and_audited,
    auth::suspended_tenant_is_refused_and_audited,
    auth::admin_operations_need_an_admin_key,
    auth::admin_key_manages_its_own_environment_only,
    auth::rate_limit_answers_429_with_retry_after,
    auth::rate_limit_headers_show_the_quota_before_it_bites,
    auth::admin_actions_are_audited_and_tenants_read_their_own,
    auth::tenants_cannot_see_each_other,
    auth::audit_logs_are_read_a_page_at_a_time,
    auth::a_tenants_rate_limit_changes_after_creation,
    auth::sandbox_and_production_never_mix,
    sanctions::clear_screening_is_201_without_hit_fields,
    sanctions::sanctioned_sam_is_a_strong_single_match,
    sanctions::maybe_prefix_is_a_borderline_match,
    sanctions::testhit_surname_gives_two_matches,
    sanctions::missing_fields_are_all_named,
    sanctions::invalid_identity_fields_are_400,
    sanctions::repeat_screening_returns_the_original_with_200,
    sanctions::same_user_with_other_details_is_already_screened,
    sanctions::status_endpoint_follows_the_user,
    sanctions::dismissal_clears_and_lifts_holds,
    sanctions::confirmation_freezes_and_keeps_holds,
    sanctions::pending_review_holds_deposits_and_withdrawals,
    sanctions::case_review_decisions_are_final,
    sanctions::invisible_ids_and_names_are_422,
    kyc::fast_path_within_200_is_instant,
    kyc::one_cent_over_200_creates_a_check,
    kyc::repeat_start_for_the_same_tier_is_idempotent,
    kyc::a_different_tier_while_open_is_already_in_progress,
    kyc::invalid_amounts_are_400,
    kyc::unknown_user_and_check_are_404,
    kyc::sandbox_autoapprove_releases_and_upgrades,
    aml::an_approval_under_an_aml_hold_releases_nothing,
    aml::a_keyed_event_is_answered_again_from_its_key,
    kyc::sandbox_autoreject_keeps_the_withdrawal_blocked,
    kyc::manual_review_is_admin_only,
    kyc::abandoned_checks_expire_after_seven_days,
    kyc::verified_tier_never_goes_down,
    kyc::the_vendor_flow_starts_with_the_check,
    kyc::tokens_are_reissued_for_a_check_that_is_not_final,
    kyc::an_abandoned_check_takes_no_token,
    kyc::a_check_for_another_tier_follows_a_rejected_or_expired_one,
    kyc::currencies_are_iso_4217_with_their_minor_units,
    kyc::production_has_no_users_without_a_screening_vendor,
    exclusions::every_duration_registers_with_its_expiry,
    exclusions::repeat_registration_is_idempotent,
    exclusions::exclusions_lengthen_but_never_shorten,
    exclusions::permanent_exclusion_is_irrevocable,
    exclusions::check_is_cross_tenant_and_normalised,
    exclusions::most_restrictive_exclusion_wins,
    exclusions::timed_exclusions_expire,
    exclusions::other_tenants_see_an_exclusion_at_once_whatever_their_clock,
    exclusions::invalid_registrations_are_rejected,
    exclusions::excluded_players_cannot_deposit,
    exclusions::snapshot_pages_are_complete_and_stable,
    exclusions::snapshot_rejects_bad_limits_and_cursors,
    exclusions::regulator_import_is_permanent_and_shared,
    exclusions::regulator_import_takes_many_entries_and_refuses_too_many,
    exclusions::a_national_number_is_its_international_form,
    exclusions::an_unreadable_number_is_422,
    exclusions::a_mailbox_is_found_by_its_providers_aliases,
    exclusions::an_idn_domain_is_one_in_unicode_and_punycode,
    limits::first_set_is_instant,
    limits::increase_brackets_match_the_table,
    limits::jurisdiction_profiles_set_the_cooloff,
    limits::decrease_is_instant_and_cancels_a_pending_increase,
    limits::pending_increase_is_idempotent_or_conflicts,
    limits::pending_increase_activates_after_cooloff,
    limits::cancel_applies_only_to_pending_increases,
    limits::invalid_limit_requests_are_rejected,
    limits::backdated_requests_cannot_skip_cooloff,
    limits::check_allows_up_to_the_limit_and_rejects_one_cent_more,
    limits::rolling_window_releases_spend_after_24_hours,
    limits::commit_is_idempotent_per_transaction,
    limits::concurrent_commits_never_exceed_a_limit,
    limits::sums_past_what_stores_keep_exactly_still_decide,
    limits::list_shows_spend_and_pending_changes,
    aml::aml_events_are_accepted_once,
    aml::aml_events_are_validated,
    aml::cash_structuring_across_a_gaming_day_alerts,
    aml::minimal_play_holds_the_next_withdrawal,
    aml::linked_deposits_lock_withdrawals_until_due_diligence,
    aml::a_cdd_lock_refuses_deposits_only_where_the_profile_says_so,
    aml::other_currencies_are_converted_at_imported_rates_or_flagged,
    aml::an_ordinary_week_raises_no_alert,
    aml::aml_decisions_replay_and_alerts_stay_with_their_tenant,
    aml::aml_event_fields_are_validated,
    aml::an_aml_case_reports_and_closes,
    aml::sums_past_what_stores_keep_exactly_are_still_decided,
    webhooks::every_event_arrives_signed_in_the_envelope,
    webhooks::a_failing_receiver_gets_the_event_once_it_recovers,
    webhooks::gone_disables_the_endpoint,
    webhooks::redirects_are_failures_and_not_followed,
    webhooks::registration_rules_and_rotation,
    webhooks::exclusions_reach_every_tenant_of_the_environment,
    scheduled::daily_snapshot_is_served_for_reconciliation,
    scheduled::users_are_rescreened_quarterly_and_on_demand,
    scheduled::scheduled_work_is_idempotent,
    audit::decisions_are_logged_with_the_rules_hash_and_replay_identically,
    audit::decision_log_is_admin_only_scoped_and_filtered,
    audit::deposit_gate_matches_every_email_and_phone_known_for_the_player,
    audit::review_lists_page_with_cursors_and_filter,
    audit::a_retried_withdrawal_counts_once,
    audit::withdrawals_stay_in_the_first_currency,
    audit::regulator_propagation_is_true_only_after_an_export,
    audit::overdue_reviews_are_listed_and_counted,
    people::an_admin_key_makes_a_person_who_must_change_the_password,
    people::metrics_show_the_store_gauges_to_an_admin_key_only,
];

/// Cases that import sanctions lists into the server's store; they run after
/// every case of [`ALL`], since a list changes what production screening
/// answers. A runner that cannot import lists skips them.
pub const LISTS: &[Case] = &[
    Case { name: "lists::production_screens_against_an_imported_list", run: lists::production_screens_against_an_imported_list },
    Case { name: "lists::a_bad_file_replaces_nothing", run: lists::a_bad_file_replaces_nothing },
    Case { name: "lists::a_list_update_screens_existing_users", run: lists::a_list_update_screens_existing_users },
    Case { name: "lists::un_and_opensanctions_lists_import", run: lists::un_and_opensanctions_lists_import },
    Case { name: "lists::eu_and_uk_lists_import", run: lists::eu_and_uk_lists_import },
    Case { name: "lists::peps_are_screened_only_where_switched_on", run: lists::peps_are_screened_only_where_switched_on },
    Case {
        name: "sanctions::a_listed_name_written_with_invisible_or_compatibility_characters_is_found",
        run: sanctions::a_listed_name_written_with_invisible_or_compatibility_characters_is_found,
    },
    Case {
        name: "sanctions::a_listed_name_with_added_joined_or_respelled_parts_is_found",
        run: sanctions::a_listed_name_with_added_joined_or_respelled_parts_is_found,
    },
    Case {
        name: "sanctions::given_names_without_the_listed_surname_need_the_date_of_birth",
        run: sanctions::given_names_without_the_listed_surname_need_the_date_of_birth,
    },
    Case {
        name: "sanctions::a_crowd_of_common_names_does_not_hide_the_person_born_that_year",
        run: sanctions::a_crowd_of_common_names_does_not_hide_the_person_born_that_year,
    },
    Case {
        name: "lists::a_dismissed_match_stays_dismissed_until_the_entry_changes",
        run: lists::a_dismissed_match_stays_dismissed_until_the_entry_changes,
    },
    Case { name: "review::production_decisions_take_two_people", run: review::production_decisions_take_two_people },
    Case { name: "review::an_approval_is_bound_to_the_proposal_read", run: review::an_approval_is_bound_to_the_proposal_read },
    Case { name: "aml::an_aml_case_takes_two_people_and_releases_the_hold", run: aml::an_aml_case_takes_two_people_and_releases_the_hold },
];

/// Cases that need console accounts (the runner's `console_user` hook); a
/// runner without one skips them.
pub const PEOPLE: &[Case] = &[
    Case { name: "review::a_sandbox_decision_is_single_step_with_a_reason", run: review::a_sandbox_decision_is_single_step_with_a_reason },
    Case { name: "review::assignment_comments_and_the_timeline", run: review::assignment_comments_and_the_timeline },
    Case { name: "review::people_sign_in_with_password_and_code", run: review::people_sign_in_with_password_and_code },
    Case { name: "review::a_session_alone_cannot_take_the_account_over", run: review::a_session_alone_cannot_take_the_account_over },
    Case { name: "review::an_idempotency_key_belongs_to_its_sender", run: review::an_idempotency_key_belongs_to_its_sender },
    Case { name: "review::the_console_saves_a_cases_tags", run: review::the_console_saves_a_cases_tags },
    Case { name: "people::a_key_makes_no_approver_where_four_eyes_applies", run: people::a_key_makes_no_approver_where_four_eyes_applies },
];
