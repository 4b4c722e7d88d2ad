/** SDK records of spec 2.5 (snake_case, as the spec names them); the wire format is RFC 7643 (see wire.ts). */
export type SCIMEmail = { readonly value: string; readonly primary: boolean };

export type SCIMUser = {
  readonly id: string;
  readonly user_name: string;
  readonly display_name: string;
  readonly emails: readonly SCIMEmail[];
  readonly active: boolean;
  /** Ids of the groups the user belongs to. */
  readonly groups: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
};

export type SCIMGroupMember = { readonly value: string; readonly display: string };

export type SCIMGroup = {
  readonly id: string;
  readonly display_name: string;
  readonly members: readonly SCIMGroupMember[];
  readonly created_at: string;
};

export type SCIMListResponse<T> = {
  readonly total_results: number;
  readonly start_index: number;
  readonly items_per_page: number;
  readonly resources: readonly T[];
};

/** Paging and shaping of a list request (RFC 7644 3.4.2). */
export type ListQuery = {
  readonly filter?: string | undefined;
  readonly startIndex?: number | undefined;
  readonly count?: number | undefined;
  readonly sortBy?: string | undefined;
  readonly sortOrder?: 'ascending' | 'descending' | undefined;
};

/** A page of wire-format resources. */
export type ResourcePage = {
  readonly totalResults: number;
  readonly startIndex: number;
  readonly resources: readonly Record<string, unknown>[];
};
