/** An institution as the API shows it (`GET /api/institutions/`) and as the simulator's catalogues list it. */
export type InstitutionType = 'bank' | 'fiscal' | 'employment';
export type FormFieldName = 'username' | 'username2' | 'username3' | 'password' | 'password2' | 'token';

export interface InstitutionEntry {
  /** An integer, as the provider's institution ids are. */
  id: number;
  name: string;
  display_name: string;
  type: InstitutionType;
  country_codes: ('BR' | 'MX' | 'CL')[];
  website: string;
  primary_color: string;
  resources: string[];
  form_fields: {
    name: FormFieldName;
    type: 'text' | 'password';
    label: string;
    optional: boolean;
    validation: string | null;
  }[];
  features: ('token_required' | 'employment_metrics' | 'sandbox')[];
}
