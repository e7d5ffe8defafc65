import { type RequestHandler, Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { ROUTE_LABEL } from '../middleware/http-metrics';

const DOCUMENT_PATH = '/openapi.json';

/** GET /openapi.json, and GET /docs: Swagger UI from the swagger-ui-dist package, no CDN. */
export function docsRouter(document: object): Router {
  const router = Router();
  const options = {
    swaggerUrl: DOCUMENT_PATH,
    customSiteTitle: 'Blog article API',
    swaggerOptions: { url: DOCUMENT_PATH },
  };
  router.get(DOCUMENT_PATH, (_request, response) => {
    response.json(document);
  });
  // The page's assets; /docs itself is redirected to /docs/ so that their relative links resolve.
  const labelForMetrics: RequestHandler = (_request, response, next) => {
    response.locals[ROUTE_LABEL] = '/docs';
    next();
  };
  router.use('/docs', labelForMetrics, swaggerUi.serveFiles(undefined, options));
  router.get('/docs', swaggerUi.setup(undefined, options));
  return router;
}
