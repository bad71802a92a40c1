import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { contractRepository, type ContractRepository } from '../repositories/contractRepository';
import type { ContractTemplates } from '../services/contractTemplates';
import { pdfSeal, type PdfSeal } from '../services/pdfSeal';

declare module 'fastify' {
  interface FastifyInstance {
    contracts: ContractRepository;
    /** Divilo's electronic seal on signed contracts. */
    contractSeal: PdfSeal;
    /** The words of the contract in each language (the bank's templates, or the sample). */
    contractTemplates: ContractTemplates;
  }
}

/** The signed contracts, the seal they are sealed with (the bank's certificate, or the sandbox seal in DATA_DIR) and their templates. */
export const contractsPlugin = fp(async (app: FastifyInstance, { config, secret }: { config: Config; secret: Buffer }) => {
  app.decorate('contracts', contractRepository(app.db));
  app.decorate('contractTemplates', config.contractTemplates);
  app.decorate('contractSeal', pdfSeal({ p12File: config.seal.p12File, passphrase: config.seal.passphrase, dataDir: config.dataDir, secret }, app.clock));
});
