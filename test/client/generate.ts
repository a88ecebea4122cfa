import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildOpenApiDocument, GENERATED_TYPES_PATH, renderApiTypes } from './openapi-document';

// `npm run client`: regenerates app/client/api.ts from the routes. Starts nothing.
const types = await renderApiTypes(await buildOpenApiDocument());
await mkdir(dirname(GENERATED_TYPES_PATH), { recursive: true });
const temporary = `${GENERATED_TYPES_PATH}.tmp`;
await writeFile(temporary, types);
await rename(temporary, GENERATED_TYPES_PATH);
console.log(`wrote ${GENERATED_TYPES_PATH}`);
