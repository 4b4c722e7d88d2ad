import { useMemo, useState } from 'react';
import { dpaRequestSchema, type PartyDetailsInput, type SubProcessorInput } from '../../../../core/contracts/dpa.ts';
import type { DpaInput } from '../../state/dpa.ts';
import { type Problems, problemsOf } from './problems.ts';

export type Party = Required<PartyDetailsInput>;
export type SubProcessor = SubProcessorInput;

const emptyParty: Party = { name: '', address: '', contact: '' };

/**
 * The DPA form's fields, the request they make (wire shape), and its problems by field, checked with the
 * server's schema so the form refuses exactly what the server would.
 */
export const useDpaForm = () => {
  const [projectId, setProjectId] = useState('default');
  const [controller, setController] = useState<Party>(emptyParty);
  const [processor, setProcessor] = useState<Party>(emptyParty);
  const [categories, setCategories] = useState<string[]>([]);
  const [dataTypes, setDataTypes] = useState<string[]>([]);
  const [purpose, setPurpose] = useState('');
  const [subProcessors, setSubProcessors] = useState<SubProcessor[]>([]);
  const [mechanisms, setMechanisms] = useState<string[]>([]);
  const [retention, setRetention] = useState('90');
  const [law, setLaw] = useState('');

  const input: DpaInput = useMemo(
    () => ({
      project_id: projectId.trim(),
      controller_details: controller,
      processor_details: processor,
      subject_categories: categories,
      transfer_mechanisms: mechanisms,
      // A blank number field is NaN, not 0, so the form asks for it instead of calling it "not positive".
      retention_period_days: retention.trim() === '' ? Number.NaN : Number(retention),
      law_of_contract: law,
      ...(dataTypes.length > 0 ? { data_categories: dataTypes } : {}),
      ...(purpose.trim() !== '' ? { processing_purpose: purpose } : {}),
      ...(subProcessors.length > 0 ? { sub_processors: subProcessors } : {}),
    }),
    [projectId, controller, processor, categories, dataTypes, purpose, subProcessors, mechanisms, retention, law],
  );
  const problems: Problems = useMemo(() => problemsOf(input, dpaRequestSchema.safeParse(input).error), [input]);

  return {
    fields: { projectId, controller, processor, categories, dataTypes, purpose, subProcessors, mechanisms, retention, law },
    set: {
      projectId: setProjectId,
      controller: setController,
      processor: setProcessor,
      categories: setCategories,
      dataTypes: setDataTypes,
      purpose: setPurpose,
      subProcessors: setSubProcessors,
      mechanisms: setMechanisms,
      retention: setRetention,
      law: setLaw,
    },
    input,
    problems,
    valid: Object.keys(problems).length === 0,
  };
};
