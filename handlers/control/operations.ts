import { API_ROUTES } from '../../model/api/routes.js'
import { jsonResponse } from '../../fastapi/http/responses.js'
import type { Route } from '../../fastapi/http/router.js'
import type { ControlRoute } from './route.js'

/**
 * The operations the API answers: its own, then a served document's (`served`: true), each by the name that
 * faults, overrides and recorded contracts know it by.
 */
export const operationRoutes = (served: readonly Route[]): ControlRoute[] => {
  const operations = [
    ...API_ROUTES.map(({ name, method, path }) => ({ name, method, path, served: false })),
    ...served.map(({ name, method, path }) => ({ name, method, path, served: true })),
  ]
  return [
    {
      method: 'GET',
      path: '/operations',
      description:
        'the operations the API answers, the mock’s own and those served from an OpenAPI document: {"operations": [{"name", "method", "path", "served"}]}',
      server: () => jsonResponse(200, { operations }),
    },
  ]
}
