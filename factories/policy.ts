import type { Faker } from '@faker-js/faker'
import {
  Assignee,
  ConsequenceAction,
  ConstraintLogic,
  ConstraintOperator,
  RuleCategory,
  RuleStatus,
  RuleType,
  Severity,
} from '../model/enums.js'
import type { Policy, PolicyRule, Team } from '../model/schemas.js'
import { cycle, pastTimestamp, seededFaker, seededUuid } from './random.js'

/** Which team owns each seeded policy (by team position), its name, rule-id prefix and size. */
const POLICIES = [
  { team: 0, name: 'Customer Data Privacy', prefix: 'PRIV', rules: 260 },
  { team: 0, name: 'Brand Voice', prefix: 'BRAND', rules: 1 },
  { team: 1, name: 'Security Baseline', prefix: 'SEC', rules: 40 },
  { team: 2, name: 'Operational Guardrails', prefix: 'OPS', rules: 12 },
]
const ACTIONS = [
  'share_personal_data',
  'issue_refund',
  'disclose_pricing',
  'execute_code',
  'send_email',
  'delete_records',
  'quote_competitors',
]
const TARGETS = ['customer_pii', 'payment_data', 'internal_docs', 'public_content', 'support_tickets']
const MODELS = ['gpt-4o-2024-08-06', 'claude-3-5-sonnet-20241022', 'llama-3.1-70b-instruct']
const OPERANDS = ['purpose', 'recipient', 'dateTime', 'spatial', 'count', 'industry']
const SECTIONS = ['1. Scope', '2. Definitions', '3.2 Data retention', '4. Acceptable use', '5.1 Escalation', 'Annex A']

/** The seeded policies with their rules. The first policy belongs to the first team. */
export function buildPolicies(seed: number, teams: Team[]): { policies: Policy[]; rules: PolicyRule[] } {
  const faker = seededFaker(seed, 4)
  const policies: Policy[] = []
  const rules: PolicyRule[] = []
  for (const spec of POLICIES) {
    const team = teams[spec.team % teams.length] as Team
    const createdAt = pastTimestamp(faker, 600)
    const policy = {
      id: seededUuid(faker),
      team_id: team.id,
      name: spec.name,
      description: faker.lorem.sentence(),
      created_at: createdAt,
      updated_at: createdAt + 86_400,
    }
    policies.push(policy)
    const policyRules = Array.from({ length: spec.rules }, (_, index) => buildRule(faker, policy, spec.prefix, index))
    // Stored out of list order, so that the list's ordering is really computed.
    rules.push(...faker.helpers.shuffle(policyRules))
  }
  return { policies, rules }
}

/**
 * Rule `index` of a policy. Rules are extracted in batches of ten that share a `created_at`,
 * so the list's second sort key (rule_id) matters; types, categories and statuses are cycled
 * so that any 28 rules cover every type and category, and every 112 every combination with status.
 */
function buildRule(faker: Faker, policy: Policy, prefix: string, index: number): PolicyRule {
  const createdAt = policy.created_at + Math.floor(index / 10) * 3_600
  const action = cycle(ACTIONS, index + faker.number.int(6))
  const status = cycle(RuleStatus.options, Math.floor(index / 28))
  const manual = index % 5 === 4
  const sourceText = faker.lorem.sentence({ min: 8, max: 20 })
  const charStart = faker.number.int({ min: 0, max: 20_000 })
  return {
    id: seededUuid(faker),
    policy_id: policy.id,
    rule_id: `${prefix}-${String(index + 1).padStart(3, '0')}`,
    rule_type: cycle(RuleType.options, index),
    action,
    consequence: {
      action: cycle(ConsequenceAction.options, index),
      severity: cycle(Severity.options, Math.floor(index / 2)),
      message: faker.lorem.sentence({ min: 4, max: 10 }),
    },
    natural_language: `The agent ${index % 2 === 0 ? 'must not' : 'may'} ${action.replaceAll('_', ' ')} ${faker.lorem.words(4)}.`,
    created_at: createdAt,
    updated_at: createdAt + faker.number.int({ min: 0, max: 10 * 86_400 }),
    target: cycle(TARGETS, index),
    assignee: cycle(Assignee.options, index),
    constraints: Array.from({ length: index % 4 }, (_, position) => ({
      left_operand: cycle(OPERANDS, index + position),
      operator: cycle(ConstraintOperator.options, index + position),
      right_operand: faker.lorem.word(),
    })),
    constraint_logic: cycle(ConstraintLogic.options, index),
    provenance: {
      extracted_by: manual ? 'manual' : 'llm',
      model_used: manual ? '' : cycle(MODELS, index),
      // A manual rule is certain: 1.0, which Python writes as a float (`1.0`), never `1`.
      confidence_score: manual ? 1 : faker.number.float({ min: 0.55, max: 0.99, fractionDigits: 2 }),
      source_location: {
        section: cycle(SECTIONS, index),
        paragraph: faker.number.int({ min: 1, max: 40 }),
        char_start: charStart,
        char_end: charStart + [...sourceText].length,
        source_text: sourceText,
      },
    },
    category: cycle(RuleCategory.options, index),
    tags: faker.helpers.arrayElements(['gdpr', 'pci', 'hipaa', 'tone', 'safety', 'finance'], { min: 0, max: 3 }),
    status,
    reviewed_by: status === 'draft' ? null : seededUuid(faker),
    reviewed_at: status === 'draft' ? null : createdAt + faker.number.int({ min: 3_600, max: 5 * 86_400 }),
    review_notes: status === 'draft' ? null : faker.lorem.sentence(),
  }
}
