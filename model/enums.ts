import { z } from 'zod'

/** Enumerations of the API description, plus the values `decisions.md` settles for the rule fields it leaves open. */
export const KnowledgeLevel = z.enum(['beginner', 'intermediate', 'advanced', 'expert'])
export const SkillLevel = z.enum(['novice', 'competent', 'proficient', 'expert'])
export const Intent = z.enum(['benign', 'curious', 'adversarial', 'malicious'])
export const PrivilegeLevel = z.enum(['guest', 'user', 'power_user', 'admin', 'super_admin'])
export const DataAccessScope = z.enum(['own', 'team', 'organization', 'global'])

export const RuleType = z.enum(['permission', 'prohibition', 'obligation', 'recommendation'])
export const RuleCategory = z.enum(['privacy', 'ethics', 'security', 'compliance', 'operational', 'brand', 'custom'])
export const RuleStatus = z.enum(['draft', 'approved', 'rejected', 'modified'])
export const ConsequenceAction = z.enum(['block', 'warn', 'log', 'escalate'])
export const Severity = z.enum(['low', 'medium', 'high', 'critical'])
export const Assignee = z.enum(['agent', 'user', 'operator'])
export const ConstraintLogic = z.enum(['AND', 'OR'])
export const ExtractedBy = z.enum(['llm', 'manual'])
/** ODRL constraint operators, as the rule constraints use them. */
export const ConstraintOperator = z.enum(['eq', 'neq', 'lt', 'lteq', 'gt', 'gteq', 'isAnyOf', 'isNoneOf'])

export type Intent = z.infer<typeof Intent>
