/**
 * Country-specific phone entities (opt-in: they run when the request names them). Presidio builds these from
 * its PhoneRecognizer with one region and local context words (its tests use PH_MOBILE_NUMBER and
 * TR_PHONE_NUMBER); we register one per region below so they can be requested and are listed in
 * `entity_types_loaded` and the Scan screen's filter. Each accepts the region's valid national numbers (trunk
 * prefix where required) and `+<country code>` numbers of that region.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type { Recognizer } from '../../types.ts';
import { PHONE_CONTEXT, phoneRecognizerFor } from './phone.ts';

/** Region, entity type (Presidio's name where its tests fix one), local context words. */
const COUNTRY_PHONES: ReadonlyArray<readonly [CountryCode, string, readonly string[]]> = [
  ['PH', 'PH_MOBILE_NUMBER', ['telepono', 'numero', 'cellphone', 'cp', 'mobile', 'tawag']],
  ['TR', 'TR_PHONE_NUMBER', ['telefon', 'cep', 'numara', 'gsm', 'ara']],
  ['JP', 'JP_PHONE_NUMBER', ['電話', '電話番号', '携帯', 'tel', 'denwa']],
  ['CN', 'CN_PHONE_NUMBER', ['电话', '手机', '联系电话', '号码', 'tel']],
  ['KR', 'KR_PHONE_NUMBER', ['전화', '전화번호', '휴대폰', '연락처']],
  ['AU', 'AU_PHONE_NUMBER', ['mob', 'ph', 'landline']],
  ['SG', 'SG_PHONE_NUMBER', ['hp', 'handphone', 'tel']],
  ['MX', 'MX_PHONE_NUMBER', ['teléfono', 'telefono', 'celular', 'móvil']],
  ['ES', 'ES_PHONE_NUMBER', ['teléfono', 'telefono', 'móvil', 'movil']],
  ['IT', 'IT_PHONE_NUMBER', ['telefono', 'cellulare', 'cell', 'tel']],
  ['NL', 'NL_PHONE_NUMBER', ['telefoon', 'telefoonnummer', 'mobiel', 'tel']],
  ['PL', 'PL_PHONE_NUMBER', ['telefon', 'komórka', 'tel', 'numer']],
  ['ZA', 'ZA_PHONE_NUMBER', ['cell', 'landline', 'tel']],
  ['NG', 'NG_PHONE_NUMBER', ['gsm', 'line', 'tel']],
];

export const countryPhoneRecognizers: readonly Recognizer[] = COUNTRY_PHONES.map(([region, entity, local]) =>
  phoneRecognizerFor([region], entity, [...PHONE_CONTEXT, ...local], { enabledByDefault: false }),
);
