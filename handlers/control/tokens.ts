import { mintToken, TokenClaims } from '../../model/auth/tokens.js'
import { jsonResponse } from '../../fastapi/http/responses.js'
import { invalidBody, readJsonBody } from './body.js'
import type { ControlRoute } from './route.js'

/** Tokens signed with the server's secret, at the time of the request's world. */
export const tokenRoutes = (secret: string): ControlRoute[] => [
  {
    method: 'POST',
    path: '/tokens',
    description: 'signs the posted claims (sub required): {"token"}',
    answer: async ({ request, instance }) => {
      const claims = TokenClaims.safeParse(await readJsonBody(request))
      if (!claims.success) throw invalidBody(claims.error)
      return jsonResponse(200, { token: await mintToken(claims.data, secret, instance.clock.nowSeconds()) })
    },
  },
]
