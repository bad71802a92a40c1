import { api } from '../../services/api';
import type { DocumentKind } from '../../validation/documentLimits';

/** The documents the wizard asks for (seed §3), as the server names them. */
export type { DocumentKind };

interface StorageIdentity {
  identityId: string;
  /** Short-lived; traded for upload credentials (`applicantCredentials`). Redacted from the state dump. */
  token: string;
  expiresIn: number;
  maxDocumentBytes: number;
}

/** A document the server checked (a PDF of the applicant's, within size) and recorded. */
export interface CheckedDocument {
  kind: DocumentKind;
  key: string;
  size: number;
  checkedAt: string;
}

const documentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The applicant's storage identity: documents go under its private area. */
    getStorageIdentity: build.mutation<StorageIdentity, void>({
      query: () => ({ url: 'onboarding-management-private/storage-identity', method: 'POST' }),
    }),
    /** Tells the server about an uploaded document; it checks it and records it, or answers why not. */
    reportDocument: build.mutation<CheckedDocument, { kind: DocumentKind; key: string }>({
      query: (body) => ({ url: 'onboarding-management-private/documents', method: 'POST', body }),
      // A document recorded (or refused, after replacing one): the list is read again.
      invalidatesTags: ['Documents'],
    }),
    /** The documents of the application that passed the check. */
    listDocuments: build.query<{ documents: CheckedDocument[] }, void>({
      query: () => ({ url: 'onboarding-management-private/documents' }),
      providesTags: ['Documents'],
    }),
  }),
});

export const { useGetStorageIdentityMutation, useReportDocumentMutation, useListDocumentsQuery } = documentsApi;
